/// An attribute named in `facets` that is not counted, with why (protocol/methods/search.md).
public struct FacetNotCounted: Sendable, Equatable {
    public var attribute: String
    public var reason: String

    public init(attribute: String, reason: String) {
        self.attribute = attribute
        self.reason = reason
    }
}
