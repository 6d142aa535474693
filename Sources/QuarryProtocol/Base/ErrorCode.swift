/// JSON-RPC 2.0 and LSP error codes, named.
public struct ErrorCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let parseError = ErrorCode(rawValue: -32700)
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    public static let invalidParams = ErrorCode(rawValue: -32602)
    public static let internalError = ErrorCode(rawValue: -32603)
    /// LSP: a request other than `initialize` arrived first.
    public static let serverNotInitialized = ErrorCode(rawValue: -32002)
    /// LSP: the client cancelled the request with `$/cancelRequest`.
    public static let requestCancelled = ErrorCode(rawValue: -32800)
    /// LSP: the state the request was about has changed (a page of a superseded session version).
    public static let contentModified = ErrorCode(rawValue: -32801)
}
