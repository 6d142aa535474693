/// `toggleFilter` {session, filter, group: {name, operator}, selectionMode?, items?}:
/// adds the filter to the group or removes it. With `selectionMode: "single"`,
/// adding it removes the list's other `items` (default: the group's other
/// filters on the same attribute).
public struct ToggleFilterRequest: RequestType, SessionScoped {
    public static let method = "toggleFilter"
    public typealias Response = SessionChangeResponse
    public enum SelectionMode: String, Sendable { case single, multiple }

    public var session: String
    public var filter: SessionFilter
    public var group: SessionGroupReference
    public var selectionMode: SelectionMode
    public var items: [SessionFilter]?

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        filter = try SessionFilter(params.object["filter"], at: "filter", in: params)
        group = try SessionGroupReference(params.object["group"], at: "group", in: params)
        selectionMode = try params.oneOf("selectionMode", ["single": SelectionMode.single, "multiple": .multiple]) ?? .multiple
        items = params.object["items"] == nil ? nil : try SessionFilter.list("items", in: params)
    }
}
