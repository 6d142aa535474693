/// `listSessions`: every session with its version, attached connections and searchers.
public struct ListSessionsRequest: RequestType {
    public static let method = "listSessions"
    public typealias Response = JSONResponse
    public init(params: Params) throws(ResponseError) {}
}
