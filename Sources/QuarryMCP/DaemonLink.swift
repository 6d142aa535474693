import QuarryClient
import QuarryJSON

/// What the tools need of the daemon: requests, and the pushes (a session's
/// `resultsUpdated`) that arrive between them. `DaemonConnection` is the one
/// implementation; the protocol keeps the tools' logic apart from the socket.
public protocol DaemonLink: AnyObject {
    /// Sends a request and waits for its reply; notifications that arrive
    /// first are kept for `takeNotifications`.
    func call(_ method: String, _ params: JSON) throws(ClientError) -> JSON
    /// The notifications kept so far, oldest first; they are then forgotten.
    func takeNotifications() -> [DaemonNotification]
    /// Waits up to `timeout` seconds for one more notification; false if none came.
    func waitForNotification(timeout: Double) throws(ClientError) -> Bool
}

public struct DaemonNotification: Sendable {
    public var method: String
    public var params: JSON
}

/// `DaemonConnection` as a `DaemonLink`.
public final class ConnectionLink: DaemonLink {
    private let connection: DaemonConnection
    private var pending: [DaemonNotification] = []

    public init(_ connection: DaemonConnection) {
        self.connection = connection
    }

    public func call(_ method: String, _ params: JSON) throws(ClientError) -> JSON {
        try connection.request(method, params: params) { method, params in
            pending.append(DaemonNotification(method: method, params: params))
        }
    }

    public func takeNotifications() -> [DaemonNotification] {
        defer { pending.removeAll() }
        return pending
    }

    public func waitForNotification(timeout: Double) throws(ClientError) -> Bool {
        while true {
            guard let message = try connection.readMessage(timeout: timeout) else { return false }
            // A reply with no request waiting is a stray; only notifications count.
            guard let method = message["method"]?.stringValue else { continue }
            pending.append(DaemonNotification(method: method, params: message["params"] ?? .null))
            return true
        }
    }
}
