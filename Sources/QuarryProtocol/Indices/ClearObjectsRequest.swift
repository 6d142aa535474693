/// `clearObjects` {index}: removes every record, keeps the settings.
public struct ClearObjectsRequest: RequestType {
    public static let method = "clearObjects"
    public typealias Response = WriteResponse
    public var index: String

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
    }
}
