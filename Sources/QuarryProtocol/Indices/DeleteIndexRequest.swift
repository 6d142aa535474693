/// `deleteIndex` {index}: removes the records, settings and derived files.
public struct DeleteIndexRequest: RequestType {
    public static let method = "deleteIndex"
    public typealias Response = WriteResponse
    public var index: String

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
    }
}
