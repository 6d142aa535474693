// QuarryTransport — how do bytes get in and out of the daemon?
//
// Framing/      pure values: detect the framing, decode inbound frames, encode outbound ones.
// Loop/         the libuv loop thread, the cross-thread mailbox, handle ownership.
// Connections/  one peer: reading, the bounded outbound queue with coalescing.
// Listeners/    stdio and the Unix-socket listener (claiming the path, stale-file recovery).
// Forwarder     the client side of `quarry connect`.
// It moves frames; it knows nothing of JSON-RPC or search.

import CTransportShims
import Glibc
import QuarrySync

/// Moves frames between the daemon and its peers over stdio and Unix sockets.
///
/// All I/O happens on one libuv loop, run on the thread that calls `run`.
/// `send`, `close` and `stop` may be called from any thread: they post to a
/// mailbox that the loop drains. The transport knows nothing of JSON-RPC.
public final class Transport: Sendable {
    let configuration: TransportConfiguration
    let log: @Sendable (String) -> Void
    let mailbox = Mailbox()
    private let runState = RunState()

    public init(configuration: TransportConfiguration = .init(), log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.log = log
        // Before any descriptor is created: a closed 0/1/2 would otherwise be
        // reused by a socket or by libuv itself. And a peer that goes away must
        // not kill the daemon with SIGPIPE.
        let status = qt_reopen_closed_std_fds()
        if status < 0 { log("cannot reopen /dev/null onto closed stdio: \(String(cString: strerror(-status)))") }
        qt_ignore_sigpipe()
    }

    /// A transport that never ran still holds what `listen` and `attachStdio` claimed.
    deinit {
        for leftover in mailbox.close() { leftover.release() }
    }

    /// Makes stdin/stdout one connection of kind `.stdio`. EOF on stdin ends its input.
    public func attachStdio() throws {
        try attachStreams(input: STDIN_FILENO, output: STDOUT_FILENO)
    }

    /// Any readable/writable descriptor pair as the stdio connection (tests use pipes).
    /// The descriptors are duplicated; the caller keeps its own.
    func attachStreams(input: Int32, output: Int32) throws {
        let inputDescriptor = try StdioAttachment.prepare(input, writable: false)
        let outputDescriptor: StdioDescriptor
        do {
            outputDescriptor = try StdioAttachment.prepare(output, writable: true)
        } catch {
            Glibc.close(inputDescriptor.fd)
            throw error
        }
        guard mailbox.post(.attachStdio(input: inputDescriptor, output: outputDescriptor)) else {
            Glibc.close(inputDescriptor.fd)
            Glibc.close(outputDescriptor.fd)
            throw TransportError.stopped
        }
    }

    /// Binds the socket now (so errors such as "already running" surface here)
    /// and accepts clients once the loop runs. May be called before `run`.
    public func listen(on socket: SocketListenerOptions) throws {
        let bound = try SocketBinder.bind(socket)
        guard mailbox.post(.adoptListener(bound)) else {
            Glibc.close(bound.fd)
            bound.removeFileAndUnlock()
            throw TransportError.stopped
        }
    }

    /// Runs the loop on the calling thread until `stop()` completes. Runs once per transport.
    public func run(delegate: TransportDelegate) {
        guard runState.claim() else {
            log("Transport.run called more than once; ignored")
            return
        }
        guard let loop = EventLoop(transport: self, delegate: delegate, mailbox: mailbox,
                                   configuration: configuration, log: log)
        else { return }
        loop.run()
    }

    /// Queues `payload` for `connection`, framed as that peer frames. Above the
    /// coalescing threshold, a frame with a `coalescingKey` replaces older unsent
    /// frames with the same key. No-op for unknown or closed connections.
    public func send(_ payload: [UInt8], to connection: ConnectionID, coalescingKey: String? = nil) {
        mailbox.post(.send(payload: payload, to: connection, coalescingKey: coalescingKey))
    }

    /// Closes `connection` once what is queued for it has been written.
    public func close(_ connection: ConnectionID) {
        mailbox.post(.close(connection))
    }

    /// Stops listening (removing the socket file), flushes queued output for a
    /// bounded time, closes everything; then `run` returns.
    public func stop() {
        mailbox.post(.stop)
    }
}

/// Whether `run` has been called.
private final class RunState: Sendable {
    private let claimed = Lock()
    private let flag = Flag()

    func claim() -> Bool {
        claimed.withLock { flag.setIfUnset() }
    }

    private final class Flag: @unchecked Sendable {
        private var isSet = false  // guarded by RunState.claimed
        func setIfUnset() -> Bool {
            defer { isSet = true }
            return !isSet
        }
    }
}
