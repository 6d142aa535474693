import QuarryTransport

extension Transport: MessageSink {}

/// Hands the transport's events to the server. Every callback runs on the
/// loop thread and only enqueues work.
public final class ServerTransportDelegate: TransportDelegate {
    let server: Server

    public init(server: Server) { self.server = server }

    public func transport(_ transport: Transport, didOpen connection: ConnectionID, kind: ConnectionKind) {
        server.connectionOpened(connection, kind: kind)
    }

    public func transport(_ transport: Transport, didReceive payload: [UInt8], on connection: ConnectionID) {
        server.received(payload, on: connection)
    }

    public func transport(_ transport: Transport, didFail error: FramingError, on connection: ConnectionID) {
        server.framingFailed(error, on: connection)
    }

    public func transport(_ transport: Transport, didClose connection: ConnectionID) {
        server.connectionClosed(connection)
    }

    public func transport(_ transport: Transport, didLosePeer connection: ConnectionID) {
        server.peerLost(connection)
    }

    public func transportDidReceiveTerminationSignal(_ transport: Transport, signal: Int32) {
        server.terminationSignal(signal)
    }
}
