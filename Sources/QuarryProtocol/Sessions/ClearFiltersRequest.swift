/// `clearFilters` {session, groups?, except?}: clears every group, the listed
/// ones, or all but the listed ones. A group is named by `"name"` (every
/// group of that name) or `{name, operator?, type?}`.
public struct ClearFiltersRequest: RequestType, SessionScoped {
    public static let method = "clearFilters"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var groups: [SessionGroupReference]?
    public var except: [SessionGroupReference]?

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        groups = try Self.selectors("groups", params)
        except = try Self.selectors("except", params)
        if groups != nil && except != nil {
            throw .invalidParams("invalid params for 'clearFilters': give 'groups' or 'except', not both", parameter: "except")
        }
    }

    private static func selectors(_ name: String, _ params: Params) throws(ResponseError) -> [SessionGroupReference]? {
        guard let elements = try params.optionalArray(name) else { return nil }
        var selectors: [SessionGroupReference] = []
        for (position, element) in elements.enumerated() {
            selectors.append(try SessionGroupReference(selector: element, at: "\(name)[\(position)]", in: params))
        }
        return selectors
    }
}
