/// Why no HTTP answer came back from a node.
public struct HTTPTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No connection was made (refused, unknown host): the node cannot have seen the request.
        case cannotConnect
        /// No complete answer within the timeout; the node may have acted on the request.
        case timedOut
        /// The connection broke during the exchange; the node may have acted on the request.
        case connectionLost
        /// A URL the transport cannot form: nothing was sent.
        case invalidURL
        case other
    }

    public var kind: Kind
    /// What went wrong, without the request's headers (they hold the API key).
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// True when the request certainly never reached the server, so even a
    /// request that is not idempotent may be sent again.
    public var requestNotSent: Bool { kind == .cannotConnect || kind == .invalidURL }

    public var description: String {
        switch kind {
        case .cannotConnect: "cannot connect (\(detail))"
        case .timedOut: "timed out"
        case .connectionLost: "connection lost (\(detail))"
        case .invalidURL: "invalid URL (\(detail))"
        case .other: detail
        }
    }
}
