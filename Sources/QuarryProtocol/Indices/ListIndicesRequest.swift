/// `listIndices`: every index with its entry count and dates, as Algolia lists them.
public struct ListIndicesRequest: RequestType {
    public static let method = "listIndices"
    public typealias Response = JSONResponse
    /// Adds each index's memory breakdown (`memory`) to its item.
    public let memory: Bool

    public init(params: Params) throws(ResponseError) {
        memory = try params.optionalBool("memory") ?? false
    }
}
