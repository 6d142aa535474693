/// JSON-RPC 2.0 and LSP error codes, named.
public struct ErrorCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let parseError = ErrorCode(rawValue: -32700)
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    public static let invalidParams = ErrorCode(rawValue: -32602)
    /// A bug: the daemon met a state it should never be in.
    public static let internalError = ErrorCode(rawValue: -32603)
    /// Quarry: the disk holding the data directory is full; nothing was written.
    public static let diskFull = ErrorCode(rawValue: -32010)
    /// Quarry: the store failed (I/O error, a damaged file); nothing was written.
    public static let storageFailure = ErrorCode(rawValue: -32011)
    /// Quarry: a limit of the daemon or the machine (open files, memory) was reached.
    public static let resourceExhausted = ErrorCode(rawValue: -32012)
    /// Quarry: the remote backend (a Typesense cluster) cannot serve the request now; the message names its state.
    public static let backendUnavailable = ErrorCode(rawValue: -32013)
    /// Quarry: the key the connection presented does not allow this method (a search-only key writing; protocol/keys.md).
    public static let forbidden = ErrorCode(rawValue: -32014)
    /// LSP: a request other than `initialize` arrived first.
    public static let serverNotInitialized = ErrorCode(rawValue: -32002)
    /// LSP: the client cancelled the request with `$/cancelRequest`.
    public static let requestCancelled = ErrorCode(rawValue: -32800)
    /// LSP: the state the request was about has changed (a page of a superseded session version).
    public static let contentModified = ErrorCode(rawValue: -32801)
}
