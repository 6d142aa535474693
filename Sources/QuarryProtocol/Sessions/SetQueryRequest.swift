/// `setQuery` {session, query}: the text every searcher searches (`""` too).
public struct SetQueryRequest: RequestType, SessionScoped {
    public static let method = "setQuery"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var query: String

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        guard case .string(let query)? = params.object["query"] else {
            throw params.fail("query", expected: "a string", got: params.object["query"])
        }
        self.query = query
    }
}
