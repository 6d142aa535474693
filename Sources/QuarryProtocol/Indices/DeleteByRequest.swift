import QuarryJSON

/// `deleteBy` {index, query?, filters…?}: deletes every record the search
/// parameters match (Algolia's `deleteByQuery`), in one write: all or none.
public struct DeleteByRequest: RequestType {
    public static let method = "deleteBy"
    public typealias Response = WriteResponse
    public var index: String
    /// The query and filtering parameters, as `browse` takes them.
    public var parameters: JSONObject

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        try params.checkQuery()
        parameters = params.remaining(excluding: ["index"])
    }
}
