/// Identifies one connection for the life of a `Transport`; never reused.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}

public enum ConnectionKind: Sendable {
    case stdio
    case socket
}

/// What the server hears from the transport. Every call comes on the loop
/// thread and must return quickly: hand real work to other threads.
public protocol TransportDelegate: AnyObject, Sendable {
    func transport(_ transport: Transport, didOpen connection: ConnectionID, kind: ConnectionKind)
    func transport(_ transport: Transport, didReceive payload: [UInt8], on connection: ConnectionID)
    func transport(_ transport: Transport, didFail error: FramingError, on connection: ConnectionID)
    /// The connection's input ended (peer EOF, error) or it was closed; sent once.
    /// After a peer EOF the connection still accepts `send` until `close(_:)` or
    /// `stop()`, so replies to requests already received still reach the peer.
    func transport(_ transport: Transport, didClose connection: ConnectionID)
    /// The peer can no longer read what is sent: it closed its socket rather than only its write side
    /// (`shutdown(SHUT_WR)`), it reset the connection, a write to it failed, or it stopped reading for
    /// good (slow consumer). Sent at most once, after `didClose`.
    func transport(_ transport: Transport, didLosePeer connection: ConnectionID)
    /// SIGINT or SIGTERM arrived; the server decides whether to `stop()`.
    func transportDidReceiveTerminationSignal(_ transport: Transport, signal: Int32)
}

public struct TransportConfiguration: Sendable {
    /// Largest inbound payload; bigger ones are refused with a `FramingError`.
    public var maxMessageSize: Int = 64 << 20
    /// Queued bytes above which a frame with a coalescing key supersedes older unsent ones.
    public var coalescingThreshold: Int = 1 << 20
    /// A connection with more than this queued is closed as a slow consumer.
    public var maxQueuedBytes: Int = 256 << 20
    /// How long `stop()` waits for queued output before closing connections anyway.
    public var stopGracePeriodMilliseconds: UInt64 = 2_000
    /// How relays ask for their output to be adopted; nil: socket connections never adopt one.
    public var outputHandoff: (any OutputHandoffLines)?

    public init(maxMessageSize: Int = 64 << 20, coalescingThreshold: Int = 1 << 20, maxQueuedBytes: Int = 256 << 20,
                stopGracePeriodMilliseconds: UInt64 = 2_000, outputHandoff: (any OutputHandoffLines)? = nil) {
        self.maxMessageSize = maxMessageSize
        self.coalescingThreshold = coalescingThreshold
        self.maxQueuedBytes = maxQueuedBytes
        self.stopGracePeriodMilliseconds = stopGracePeriodMilliseconds
        self.outputHandoff = outputHandoff
    }
}
