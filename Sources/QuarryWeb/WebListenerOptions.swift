/// What `quarry serve --http` (or config.json's `http` object) asks of the HTTP listener.
public struct WebListenerOptions: Sendable {
    public var address: WebAddress
    public var allowedHosts: Set<String> = []
    public var allowedOrigins: Set<String> = []
    /// The largest WebSocket frame or message, as `--max-message-size` for the sockets; larger ones close with 1009.
    public var maxMessageSize = 64 << 20
    /// An HTTP connection with no request for this long is closed.
    public var idleTimeoutSeconds: Int64 = 30
    /// HTTP header lines and the whole header, in bytes (NIO's parser refuses more).
    public var maxHeaderBytes = 16 << 10
    public var coalescingThreshold = 1 << 20
    public var maxQueuedBytes = 256 << 20

    public init(address: WebAddress) { self.address = address }
}
