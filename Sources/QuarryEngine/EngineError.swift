/// Why the engine refused a call. Each case names what was wrong so the
/// server can pass it on as a JSON-RPC error without guessing.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    case indexNotFound(String)
    /// A search or write parameter: its name and what was expected.
    case invalidParameter(name: String, expected: String)
    /// A setting: its name and what was expected.
    case invalidSetting(name: String, expected: String)
    /// A record that cannot be stored: where it is (`record 12`, `line 40`) and why.
    case invalidRecord(position: String, reason: String)
    /// The store failed (disk full, I/O error); nothing was written.
    case storage(String)
    /// Another process (a running quarry daemon) holds the data directory's lock.
    case directoryLocked(String)
    /// The caller asked a long operation (an import) to stop; nothing was written.
    case cancelled

    public var description: String {
        switch self {
        case .indexNotFound(let name): "index '\(name)' does not exist"
        case .invalidParameter(let name, let expected): "'\(name)' must be \(expected)"
        case .invalidSetting(let name, let expected): "setting '\(name)' must be \(expected)"
        case .invalidRecord(let position, let reason): "\(position): \(reason)"
        case .storage(let reason): "storage error: \(reason)"
        case .directoryLocked(let directory):
            "another quarry daemon owns \(directory); use `quarry connect` to talk to it"
        case .cancelled: "cancelled"
        }
    }
}
