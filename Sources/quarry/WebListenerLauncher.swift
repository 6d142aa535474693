#if canImport(Glibc)
import Glibc
#endif
import QuarryProtocol
import QuarryServer
import QuarrySync
import QuarryWeb

/// Starts a daemon's HTTP listener once: at startup when `--http` or config.json asks for it, else when a
/// client asks (`listenHTTP`, what `quarry open` sends to a daemon started without it). Keys first
/// (created on the first start), then the listener; the log names the address, never a key.
final class WebListenerLauncher: Sendable {
    private struct State {
        var server: Server?
        var address: WebAddress?
    }

    private let options: WebListenerOptions
    private let directory: String
    private let connections: WebConnections
    private let log: @Sendable (String) -> Void
    private let state = Locked(State())

    /// `options`: the configured listener, else a free loopback port with the daemon's message size limit.
    init(options: WebListenerOptions?, maxMessageSize: Int, directory: String, connections: WebConnections,
         log: @escaping @Sendable (String) -> Void) {
        var fallback = WebListenerOptions(address: WebAddress(host: "127.0.0.1", port: 0))
        fallback.maxMessageSize = maxMessageSize
        self.options = options ?? fallback
        self.directory = directory
        self.connections = connections
        self.log = log
    }

    var addressFile: String { directory + "/http-address" }

    /// The server the listener feeds; set once, before the first `start()`.
    func attach(_ server: Server) {
        state.withLock { $0.server = server }
    }

    /// Starts the listener unless it runs; its address, and whether this call started it.
    func start() throws -> ListenHTTPRequest.Response {
        try state.withLock { state throws -> ListenHTTPRequest.Response in
            if let address = state.address { return .init(address: address.description, started: false) }
            guard let server = state.server else { throw WebListenerError.cannotListen(options.address, "no server yet") }
            let keys = try WebKeys.loadOrCreate(dataDirectory: directory)
            if !options.address.isLoopback {
                log("warning: HTTP listens on \(options.address), which other machines can reach; every request still needs a key from \(directory)/keys.json")
            }
            let address = try WebListener.start(options, keys: keys, server: server, connections: connections, log: log)
            WebAddressFile.write(address, to: addressFile)
            log("HTTP on http://\(address) (the search page and JSON-RPC over WebSocket at /rpc)")
            state.address = address
            return .init(address: address.description, started: true)
        }
    }

    /// The daemon is ending: the address it served at is no longer one.
    func stop() {
        if state.withLock({ $0.address }) != nil { unlink(addressFile) }
    }
}
