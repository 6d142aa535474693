import QuarryProtocol
#if canImport(Glibc)
import Glibc
#endif

public struct ServerConfiguration: Sendable {
    public var serverName = "quarry"
    public var serverVersion = "0.1.0"
    /// The version of the wire contract in `protocol/`.
    public var protocolVersion = "0.1"
    public var maxNestingDepth = 512
    /// Only for error texts: the transport enforces the limit.
    public var maxMessageSize = 64 << 20
    /// End the daemon after this many seconds with no client; `nil` never.
    public var idleTimeout: Double? = nil
    /// Seconds a session with no attached connection is kept (`--session-grace`).
    public var sessionGracePeriod: Double = 300
    /// The machine's online cores.
    static let onlineCores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Searches at once: cores − 1 keeps a core for the loop thread.
    public var searchConcurrency = max(1, onlineCores - 1)
    /// Reported in `initialize` (nil: not reported).
    public var daemon: DaemonInfo? = nil
    /// Starts the HTTP listener if it does not run yet (`listenHTTP`); nil where this daemon cannot serve HTTP.
    public var listenHTTP: (@Sendable () throws -> ListenHTTPRequest.Response)? = nil

    public init() {}
}
