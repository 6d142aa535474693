/// `setIndex` {session, searcher, index}: points a hits searcher at another
/// index (sort-by: a replica); its relevant-sort choice resets.
public struct SetIndexRequest: RequestType, SessionScoped {
    public static let method = "setIndex"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var searcher: String
    public var index: String

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        searcher = try params.string("searcher")
        index = try params.indexName()
    }
}
