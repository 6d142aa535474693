/// Why a backend (the embedded engine or a Typesense cluster) refused a call. Each case names
/// what was wrong, so that one mapping (`QuarryServer`'s `ResponseError(backend:)`) passes it on
/// as a JSON-RPC error without guessing.
public enum BackendError: Error, Sendable, Equatable, CustomStringConvertible {
    case indexNotFound(String)
    /// A search or write parameter: its name and what was expected.
    case invalidParameter(name: String, expected: String)
    /// A setting: its name and what was expected.
    case invalidSetting(name: String, expected: String)
    /// A record that cannot be stored: where it is (`record 12`, `line 40`) and why.
    case invalidRecord(position: String, reason: String)
    /// The store failed (I/O error, a damaged file); nothing was written.
    case storage(String)
    /// The file system holding the data directory is full; nothing was written.
    /// Reads go on, and writes succeed again once space is freed.
    case diskFull(String)
    /// A limit of the process or the machine was reached (open files, memory);
    /// nothing was written.
    case resourceExhausted(String)
    /// Another process (a running quarry daemon) holds the data directory's lock.
    case directoryLocked(String)
    /// The caller asked a long operation (an import) to stop; nothing was written.
    case cancelled
    /// A remote backend (a Typesense cluster) cannot serve the call now: its
    /// state, node by node. A write that gets this was not applied.
    case unavailable(String)

    public var description: String {
        switch self {
        case .indexNotFound(let name): "index '\(name)' does not exist"
        case .invalidParameter(let name, let expected): "'\(name)' must be \(expected)"
        case .invalidSetting(let name, let expected): "setting '\(name)' must be \(expected)"
        case .invalidRecord(let position, let reason): "\(position): \(reason)"
        case .storage(let reason): "storage error: \(reason)"
        case .diskFull(let reason): "disk full: \(reason)"
        case .resourceExhausted(let reason): "resource limit reached: \(reason)"
        case .directoryLocked(let directory):
            "another quarry daemon owns \(directory); use `quarry connect` to talk to it"
        case .cancelled: "cancelled"
        case .unavailable(let state): "backend unavailable: \(state)"
        }
    }
}
