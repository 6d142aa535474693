/// `shutdown`: the client is about to send `exit`; further requests are refused.
public struct ShutdownRequest: RequestType {
    public static let method = "shutdown"
    public typealias Response = VoidResponse
    public init(params: Params) throws(ResponseError) {}
}
