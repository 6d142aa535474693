/// `deleteObjects` {index, objectIDs}: ids that do not exist are ignored.
public struct DeleteObjectsRequest: RequestType {
    public static let method = "deleteObjects"
    public typealias Response = WriteResponse
    public var index: String
    public var objectIDs: [String]

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        objectIDs = try params.strings("objectIDs")
    }
}
