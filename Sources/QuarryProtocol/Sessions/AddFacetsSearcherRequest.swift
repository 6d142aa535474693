/// `addFacetsSearcher` {session, index, attribute}: appends a searcher for
/// the values of `attribute` matching the session's query.
public struct AddFacetsSearcherRequest: RequestType, SessionScoped {
    public static let method = "addFacetsSearcher"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var searcher: FacetsSearcherSpec

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        searcher = try FacetsSearcherSpec(params)
    }
}
