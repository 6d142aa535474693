import QuarryProtocol

/// Why a client call failed: the daemon could not be reached, or it answered
/// with a JSON-RPC error.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    case cannotConnect(path: String, reason: String)
    case connectionLost(String)
    case rpc(ResponseError)
    /// A second termination signal came while a cancelled request's reply was awaited.
    case interrupted(signal: Int32)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): "cannot connect to the quarry daemon at \(path): \(reason)"
        case .connectionLost(let reason): "lost the connection to the quarry daemon: \(reason)"
        case .rpc(let error): error.readableMessage
        case .interrupted: "interrupted"
        }
    }
}
