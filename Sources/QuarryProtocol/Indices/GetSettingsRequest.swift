/// `getSettings` {index}: the settings with Algolia's current names, plus the
/// unsupported ones as they were given.
public struct GetSettingsRequest: RequestType {
    public static let method = "getSettings"
    public typealias Response = JSONResponse
    public var index: String

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
    }
}
