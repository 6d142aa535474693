import QuarrySearchContract

/// Why a session change or read was refused. The server maps each case to a
/// JSON-RPC error (`invalidParameter`, `…NotFound`: -32602; `superseded`: -32801;
/// `backend`: as the backend's error is mapped for every method).
public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `parameter` is the param's path (`filter.value`, `searcher`); `reason` says what was expected.
    case invalidParameter(_ parameter: String, _ reason: String)
    case sessionNotFound(String)
    case searcherNotFound(String)
    /// A page was asked for a state version the session has moved past.
    case superseded(requested: Int, current: Int)
    /// The backend refused a call made while applying the change or running a search.
    case backend(BackendError)

    public var description: String {
        switch self {
        case .invalidParameter(let parameter, let reason): "'\(parameter)' must be \(reason)"
        case .sessionNotFound(let name): "no session named \"\(name)\""
        case .searcherNotFound(let id): "the session has no searcher \"\(id)\""
        case .superseded(let requested, let current):
            "state version \(requested) was superseded: the session is at version \(current)"
        case .backend(let error): error.description
        }
    }

    /// The param the error is about, for `data.parameter`.
    public var parameter: String? {
        switch self {
        case .invalidParameter(let parameter, _): parameter
        case .sessionNotFound: "session"
        case .searcherNotFound: "searcher"
        case .superseded: "stateVersion"
        case .backend(.invalidParameter(let name, _)): name
        case .backend(.indexNotFound): "index"
        case .backend: nil
        }
    }
}
