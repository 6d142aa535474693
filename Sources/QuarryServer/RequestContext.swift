import QuarryJSON
import QuarryProtocol
import QuarryTransport

/// What a handler knows of the request it serves.
struct RequestContext: Sendable {
    let server: Server
    let connection: ServerConnection
    let id: RequestID
    let token: CancellationToken

    /// Sends a notification to this request's connection only.
    func notify(_ notification: some ServerNotificationType, coalescingKey: String? = nil) {
        server.send(notification.message, to: connection.id, coalescingKey: coalescingKey)
    }
}
