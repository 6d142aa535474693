/// `addHitsSearcher` {session, index, hitsPerPage?, attributesToRetrieve?,
/// attributesToHighlight?, attributesToSnippet?, showItemsOnEmptyQuery?,
/// facets?, facetOrder?}: appends a hits searcher; the reply names it.
public struct AddHitsSearcherRequest: RequestType, SessionScoped {
    public static let method = "addHitsSearcher"
    public typealias Response = SessionChangeResponse
    public var session: String
    public var searcher: HitsSearcherSpec

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        searcher = try HitsSearcherSpec(params)
    }
}
