/// `getObjects` {index, objectIDs, attributesToRetrieve?}: records by id, in
/// the order asked, `null` for an id that does not exist.
public struct GetObjectsRequest: RequestType {
    public static let method = "getObjects"
    public typealias Response = JSONResponse
    public var index: String
    public var objectIDs: [String]
    public var attributesToRetrieve: [String]?

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        objectIDs = try params.strings("objectIDs")
        attributesToRetrieve = try params.optionalStrings("attributesToRetrieve")
    }
}
