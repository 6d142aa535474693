import Dispatch
import QuarryBackend
import QuarryJSON
import QuarryProtocol
import QuarrySession
import QuarryTransport
import QuarrySync

/// Answers JSON-RPC messages: decodes them per connection, routes each method
/// to its handler (`Server+Dispatch.swift`), and sends replies through the sink.
///
/// The transport calls the `connection…`/`received` entry points on its loop
/// thread; they only hand work to queues, so the loop does I/O only.
public final class Server: Sendable {
    let configuration: ServerConfiguration
    let backend: any IndexBackend
    let sink: any MessageSink
    let log: @Sendable (String) -> Void
    let connections: Locked<[ConnectionID: ServerConnection]>
    /// Connections whose input ended, until their last reply is sent.
    let closing = Locked<[ConnectionID: ServerConnection]>([:])
    let lifecycle = Locked(LifecycleState())
    let readPool: FairPool
    /// Writes run lowered, as the persistence queue's merges and saves do: under a stream of batches the
    /// searches take the cores first (Benchmarks/RESULTS.md, "Writes lowered beside the searches").
    let writeQueues = KeyedSerialQueues(
        label: "quarry.write",
        lowered: BackgroundThread(name: "quarry-write", threads: max(2, ServerConfiguration.onlineCores)))
    let sessions: SessionRegistry
    var sessionBackend: any SearchBackend { sessions.environment.backend }

    struct LifecycleState: Sendable {
        var exitCode: Int32?
        var socketClients = 0
        var hasStdio = false
        var idleGeneration = 0
    }

    public init(configuration: ServerConfiguration, backend: any IndexBackend, sink: any MessageSink,
                log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.backend = backend
        self.sink = sink
        self.log = log
        let readPool = FairPool(width: configuration.searchConcurrency)
        self.readPool = readPool
        // Completions of estimates (only a cluster gives them) wait on the network, not a core.
        let completionPool = FairPool(width: 2)
        let connections = Locked<[ConnectionID: ServerConnection]>([:])
        self.connections = connections
        let outlet = SinkSessionOutlet(sink: sink) { subscriber in
            connections.withLock { $0[ConnectionID(rawValue: subscriber.rawValue)] }?.positionEncoding ?? .utf16
        }
        sessions = SessionRegistry(
            environment: SessionEnvironment(
                backend: IndexSessionBackend(backend: backend), outlet: outlet,
                runSearch: { session, job in readPool.submit(key: Self.readPoolKey(session: session), job) },
                runCompletion: { session, job in completionPool.submit(key: Self.readPoolKey(session: session), job) }),
            gracePeriod: configuration.sessionGracePeriod)
    }

    /// A session's searches take turns on the read pool like a connection:
    /// keys with the top bit set, which connection ids never reach.
    static func readPoolKey(session: String) -> UInt64 {
        (1 << 63) | (UInt64(truncatingIfNeeded: session.hashValue) >> 1)
    }

    /// The code the process should exit with once the loop has returned.
    public var exitCode: Int32 { lifecycle.withLock { $0.exitCode } ?? 0 }

    // MARK: Entry points (transport loop thread)

    public func connectionOpened(_ id: ConnectionID, kind: ConnectionKind) {
        connectionOpened(id, kind: kind, permits: { _ in true })
    }

    /// A connection whose requests are limited to the methods `permits` allows (a web transport's
    /// search-only key); the others are refused with `forbidden` (protocol/keys.md).
    public func connectionOpened(_ id: ConnectionID, kind: ConnectionKind, permits: @escaping @Sendable (String) -> Bool) {
        connections.withLock { $0[id] = ServerConnection(id: id, kind: kind, permits: permits) }
        lifecycle.withLock { state in
            switch kind {
            case .stdio: state.hasStdio = true
            case .socket: state.socketClients += 1; state.idleGeneration += 1
            }
        }
    }

    public func received(_ payload: [UInt8], on id: ConnectionID) {
        guard let connection = connections.withLock({ $0[id] }) else { return }
        connection.queue.async { self.process(payload, on: connection) }
    }

    public func framingFailed(_ error: FramingError, on id: ConnectionID) {
        guard let reply = Self.reply(to: error) else {
            log("connection \(id): \(error)")
            return
        }
        guard let connection = connections.withLock({ $0[id] }) else { return }
        connection.queue.async { self.send(reply, to: id) }
    }

    /// The error reply to a frame that could not be read; nil for one cut short by the end of input,
    /// which gets none. A forwarding `quarry serve` answers its frontend's with the same.
    public static func reply(to error: FramingError) -> JSON? {
        let reply: ResponseError
        switch error {
        case .messageTooLarge(let declared, let limit):
            reply = .invalidRequest("invalid request: message of \(declared) bytes exceeds the limit of \(limit) bytes (--max-message-size)")
        case .lineTooLong(let limit):
            reply = .invalidRequest("invalid request: line exceeds the limit of \(limit) bytes (--max-message-size)")
        case .invalidHeader(let reason):
            reply = ResponseError(code: .parseError, message: "parse error: invalid header: \(reason)")
        case .truncatedAtEOF:
            return nil
        }
        return OutgoingMessage.error(reply, id: nil)
    }

    /// The peer's input ended. Replies still owed are sent (a client that
    /// half-closes after its last request still gets them); then a socket
    /// connection is closed and stdio ends the daemon. A peer that is gone
    /// altogether is `peerLost`.
    public func connectionClosed(_ id: ConnectionID) {
        guard let connection = connections.withLock({ $0.removeValue(forKey: id) }) else { return }
        closing.withLock { $0[id] = connection }
        // After the connection's messages already queued; off the loop thread.
        connection.queue.async { self.sessions.detachAll(connection.subscriber) }
        connection.queue.async {
            connection.pending.notify(queue: connection.queue) {
                self.closing.withLock { _ = $0.removeValue(forKey: id) }
                switch connection.kind {
                case .stdio:
                    self.stop(exitCode: connection.phase == .shutDown ? 0 : 1)
                case .socket:
                    self.sink.close(id)
                    self.socketClientLeft()
                }
            }
        }
    }

    /// Nobody is left to read the connection's replies: its requests are cancelled as by
    /// `$/cancelRequest`, so an import in flight rolls back rather than commit behind the back of a
    /// client that was killed or interrupted (protocol/README.md, "Cancellation").
    public func peerLost(_ id: ConnectionID) {
        guard let connection = connections.withLock({ $0[id] }) ?? closing.withLock({ $0[id] }) else { return }
        let cancelled = connection.peerLost()
        if cancelled > 0 { log("connection \(id): the client is gone; cancelled \(cancelled) request(s) in flight") }
    }

    private func socketClientLeft() {
        let idle = lifecycle.withLock { state -> Int? in
            state.socketClients -= 1
            state.idleGeneration += 1
            return state.socketClients == 0 && !state.hasStdio ? state.idleGeneration : nil
        }
        if let idle { scheduleIdleStop(generation: idle) }
    }

    public func terminationSignal(_ signal: Int32) {
        log("signal \(signal): stopping")
        stop(exitCode: 0)
    }

    /// Starts the idle countdown for a daemon that begins with no client.
    public func started() {
        let idle = lifecycle.withLock { state in state.socketClients == 0 && !state.hasStdio ? state.idleGeneration : nil }
        if let idle { scheduleIdleStop(generation: idle) }
    }

    // MARK: Output

    func send(_ message: JSON, to id: ConnectionID, coalescingKey: String? = nil) {
        sink.send(JSONWriter.encode(message), to: id, coalescingKey: coalescingKey)
    }

    func stop(exitCode: Int32) {
        let first = lifecycle.withLock { state -> Bool in
            guard state.exitCode == nil else { return false }
            state.exitCode = exitCode
            return true
        }
        if first { sink.stop() }
    }

    private func scheduleIdleStop(generation: Int) {
        guard let timeout = configuration.idleTimeout else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            let stillIdle = self.lifecycle.withLock { $0.idleGeneration == generation && $0.socketClients == 0 }
            if stillIdle {
                self.log("no client for \(timeout) s: stopping (--idle-timeout)")
                self.stop(exitCode: 0)
            }
        }
    }
}
