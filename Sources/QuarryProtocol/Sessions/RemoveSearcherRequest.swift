/// `removeSearcher` {session, searcher}.
public struct RemoveSearcherRequest: RequestType, SessionScoped {
    public static let method = "removeSearcher"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var searcher: String

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        searcher = try params.string("searcher")
    }
}
