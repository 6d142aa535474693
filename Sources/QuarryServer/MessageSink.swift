import QuarryTransport

/// Where the server's bytes go: the transport in the daemon, a recorder in tests.
/// Every method may be called from any thread.
public protocol MessageSink: Sendable {
    func send(_ payload: [UInt8], to connection: ConnectionID, coalescingKey: String?)
    func close(_ connection: ConnectionID)
    /// Flush what is queued, close everything, and end the daemon's loop.
    func stop()
}
