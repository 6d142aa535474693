/// `listIndices`: every index with its entry count and dates, as Algolia lists them.
public struct ListIndicesRequest: RequestType {
    public static let method = "listIndices"
    public typealias Response = JSONResponse
    public init(params: Params) throws(ResponseError) {}
}
