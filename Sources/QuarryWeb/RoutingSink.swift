import QuarryServer
import QuarryTransport

/// One sink for one server over two transports: each connection id goes to the transport that made it.
public struct RoutingSink: MessageSink {
    let sockets: Transport
    let web: WebConnections

    public init(sockets: Transport, web: WebConnections) {
        self.sockets = sockets
        self.web = web
    }

    public func send(_ payload: [UInt8], to connection: ConnectionID, coalescingKey: String?) {
        if WebConnections.owns(connection) {
            web.send(payload, to: connection, coalescingKey: coalescingKey)
        } else {
            sockets.send(payload, to: connection, coalescingKey: coalescingKey)
        }
    }

    public func close(_ connection: ConnectionID) {
        if WebConnections.owns(connection) { web.close(connection) } else { sockets.close(connection) }
    }

    public func stop() {
        web.stop()
        sockets.stop()
    }
}
