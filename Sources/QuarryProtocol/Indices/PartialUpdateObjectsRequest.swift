import QuarryJSON

/// `partialUpdateObjects` {index, objects, createIfNotExists?}: merge the given
/// top-level attributes into existing records; each object needs an `objectID`.
public struct PartialUpdateObjectsRequest: RequestType {
    public static let method = "partialUpdateObjects"
    public typealias Response = WriteResponse
    public var index: String
    public var objects: [JSONObject]
    public var createIfNotExists: Bool

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        objects = try params.objects("objects")
        for (position, object) in objects.enumerated() {
            switch object["objectID"] {
            case .string?, .int?: continue
            case let other:
                throw params.fail("objects[\(position)].objectID", expected: "a string", got: other)
            }
        }
        createIfNotExists = try params.optionalBool("createIfNotExists") ?? true
    }
}
