/// `toggleRelevantSort` {session, searcher}: on a hits searcher over a virtual
/// replica, switches between the most relevant hits and all hits.
public struct ToggleRelevantSortRequest: RequestType, SessionScoped {
    public static let method = "toggleRelevantSort"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var searcher: String

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        searcher = try params.string("searcher")
    }
}
