import QuarryJSON

/// `setFilters`: replaces one group ({session, group: {name, operator},
/// filters}) or the whole filter state ({session, groups: [{name, operator,
/// filters}]}; hierarchical selections are cleared too).
public struct SetFiltersRequest: RequestType, SessionScoped {
    public static let method = "setFilters"
    public typealias Response = SessionChangeResponse
    public struct Group: Sendable, Hashable {
        public var reference: SessionGroupReference
        public var filters: [SessionFilter]
    }

    public var session: String
    /// One group to replace, or nil for the whole state.
    public var group: Group?
    public var groups: [Group]

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        if params.object["group"] != nil {
            group = Group(reference: try SessionGroupReference(params.object["group"], at: "group", in: params),
                          filters: try SessionFilter.list("filters", in: params))
            groups = []
            return
        }
        guard let elements = try params.optionalArray("groups") else {
            throw params.fail("groups", expected: "an array of {name, operator, filters} (or give 'group' and 'filters')", got: nil)
        }
        group = nil
        groups = []
        for (position, element) in elements.enumerated() {
            let path = "groups[\(position)]"
            let reference = try SessionGroupReference(element, at: path, in: params)
            let filters = try params.nested(element, at: path) { (p) throws(ResponseError) in try SessionFilter.list("filters", in: p) }
            groups.append(Group(reference: reference, filters: filters))
        }
    }
}
