/// `setHierarchicalFilter` {session, attributes, path, separator?, name?}:
/// selects `path` (`"A > B"`) in the hierarchical menu over `attributes`
/// (`[lvl0, lvl1, …]`); selecting the current path or an ancestor moves up
/// one level; `null` or `""` clears. The menu is named `name`, else `attributes[0]`.
public struct SetHierarchicalFilterRequest: RequestType, SessionScoped {
    public static let method = "setHierarchicalFilter"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var name: String
    public var attributes: [String]
    public var path: String?
    public var separator: String?

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        attributes = try params.strings("attributes")
        guard let first = attributes.first else { throw params.fail("attributes", expected: "a non-empty array of strings", got: .array([])) }
        name = try params.optionalString("name") ?? first
        switch params.object["path"] {
        case nil, .null?: path = nil
        case .string(let text)?: path = text.isEmpty ? nil : text
        case let other?: throw params.fail("path", expected: "a string or null", got: other)
        }
        separator = try params.optionalString("separator")
    }
}
