/// `stopServer`: ends a socket daemon cleanly for every client (`quarry stop`).
/// Replies first, then the daemon closes every connection and exits 0.
public struct StopServerRequest: RequestType {
    public static let method = "stopServer"
    public typealias Response = VoidResponse
    public init(params: Params) throws(ResponseError) {}
}
