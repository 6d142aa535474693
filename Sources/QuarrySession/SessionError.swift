/// Why a session change or read was refused. The server maps each case to a
/// JSON-RPC error (`invalidParameter`, `…NotFound`: -32602; `superseded`: -32801).
public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `parameter` is the param's path (`filter.value`, `searcher`); `reason` says what was expected.
    case invalidParameter(_ parameter: String, _ reason: String)
    case sessionNotFound(String)
    case searcherNotFound(String)
    /// A page was asked for a state version the session has moved past.
    case superseded(requested: Int, current: Int)
    /// The engine refused a call made while applying the change.
    case backend(String)
    /// The engine's storage or a resource limit failed the call: `reason` is
    /// `diskFull`, `storage` or `resourceExhausted`, as the wire's `data.reason`.
    case unavailable(reason: String, String)

    public var description: String {
        switch self {
        case .invalidParameter(let parameter, let reason): "'\(parameter)' must be \(reason)"
        case .sessionNotFound(let name): "no session named \"\(name)\""
        case .searcherNotFound(let id): "the session has no searcher \"\(id)\""
        case .superseded(let requested, let current):
            "state version \(requested) was superseded: the session is at version \(current)"
        case .backend(let message): message
        case .unavailable(_, let message): message
        }
    }

    /// The param the error is about, for `data.parameter`.
    public var parameter: String? {
        switch self {
        case .invalidParameter(let parameter, _): parameter
        case .sessionNotFound: "session"
        case .searcherNotFound: "searcher"
        case .superseded: "stateVersion"
        case .backend, .unavailable: nil
        }
    }
}
