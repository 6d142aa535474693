import HummingbirdWebSocket
import QuarryServer
import QuarryTransport

/// One WebSocket as one server connection: each text (or binary) message is a JSON-RPC payload for
/// `Server.received`, and what the server sends goes out as one text message each.
struct WebSocketConnection: Sendable {
    let server: QuarryServer.Server
    let connections: WebConnections
    let access: WebAccess
    let maxMessageSize: Int
    let log: @Sendable (String) -> Void

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let server = self.server
        let log = self.log
        guard let (id, outbox) = connections.open(onOverflow: { id in
            log("web connection \(id): closed as a slow reader (more than the outbound limit queued)")
        }) else { return }
        defer { connections.remove(id) }
        let access = self.access
        server.connectionOpened(id, kind: .socket, permits: { access.permits($0) })
        let maxMessageSize = self.maxMessageSize
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The reader: its end (the peer closed, or a refused message) is the connection's end of input.
            group.addTask {
                defer { server.connectionClosed(id) }
                do {
                    for try await message in inbound.messages(maxSize: maxMessageSize) {
                        switch message {
                        case .text(let text): server.received(Array(text.utf8), on: id)
                        case .binary(let buffer): server.received(Array(buffer.readableBytesView), on: id)
                        }
                    }
                } catch is CancellationError {}
            }
            // The writer, until the server closes the connection or the peer is gone.
            do {
                while let messages = await outbox.next() {
                    for message in messages {
                        try await outbound.write(.text(String(decoding: message.bytes, as: UTF8.self)))
                    }
                }
            } catch {
                outbox.abandon()
            }
            group.cancelAll()
            // Rethrows the reader's refusal (a message over the limit) so the close carries its code.
            try await group.waitForAll()
        }
    }
}
