import QuarryJSON

/// `search` {index, query?, …any search parameter}: a stateless one-shot
/// search with an Algolia-shaped response. Parameters other than `index` go
/// to the engine, which checks them.
public struct SearchRequest: RequestType {
    public static let method = "search"
    public typealias Response = JSONResponse
    public var index: String
    public var parameters: JSONObject

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        try params.checkQuery()
        // `counts` (protocol/methods/search.md): exact (the default) or fast, which a cluster may answer with estimates.
        _ = try params.oneOf("counts", ["exact": true, "fast": false])
        parameters = params.remaining(excluding: ["index"])
    }
}
