import CLibUV
import CTransportShims
import Glibc

/// Everything that lives on the loop thread for one `Transport.run`: the libuv
/// loop, the mailbox wake-up, signal watchers, listeners and connections.
/// Touched only from libuv callbacks on that thread.
final class EventLoop {
    let loop: UnsafeMutablePointer<uv_loop_t>
    unowned let transport: Transport
    let delegate: TransportDelegate
    let configuration: TransportConfiguration
    let log: @Sendable (String) -> Void
    /// Shared by all stream reads: each read is decoded before the next is allocated.
    let readBuffer: UnsafeMutableRawBufferPointer
    private let mailbox: Mailbox
    private var connections: [ConnectionID: Connection] = [:]
    private var listeners: [UnixSocketListener] = []
    private var nextID: UInt64 = 1
    private var async: UnsafeMutableRawPointer?
    private var signals: [UnsafeMutableRawPointer] = []
    private var graceTimer: UnsafeMutableRawPointer?
    private var stopping = false
    /// Loop memory may only be freed once `uv_loop_close` succeeded.
    private var loopClosed = false

    init?(transport: Transport, delegate: TransportDelegate, mailbox: Mailbox,
          configuration: TransportConfiguration, log: @escaping @Sendable (String) -> Void) {
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        let status = uv_loop_init(loop)
        guard status == 0 else {
            log("uv_loop_init failed: \(Connection.describe(status))")
            loop.deallocate()
            return nil
        }
        self.loop = loop
        self.transport = transport
        self.delegate = delegate
        self.mailbox = mailbox
        self.configuration = configuration
        self.log = log
        self.readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
        if loopClosed { loop.deallocate() }
    }

    /// Runs until `stop` has closed every handle.
    func run() {
        let async = UVHandle.allocate(UV_ASYNC)
        uv_async_init(loop, qt_async(async)) { handle in
            UVHandle.owner(of: UnsafeMutableRawPointer(handle), as: EventLoop.self)?.drainMailbox()
        }
        UVHandle.setOwner(async, self)
        self.async = async
        for signal in [SIGINT, SIGTERM] { watch(signal) }
        mailbox.open(async: async)
        uv_run(loop, UV_RUN_DEFAULT)
        // A file read still on the thread pool keeps the loop busy; let it finish, within reason.
        for _ in 0..<100 {
            if uv_loop_close(loop) != UV_EBUSY.rawValue {
                loopClosed = true
                return
            }
            uv_run(loop, UV_RUN_ONCE)
        }
        log("event loop still busy after stop; leaving it open")
    }

    private func watch(_ signal: Int32) {
        let handle = UVHandle.allocate(UV_SIGNAL)
        uv_signal_init(loop, qt_signal(handle))
        UVHandle.setOwner(handle, self)
        uv_signal_start(qt_signal(handle), { handle, signal in
            guard let loop = UVHandle.owner(of: UnsafeMutableRawPointer(handle), as: EventLoop.self) else { return }
            loop.delegate.transportDidReceiveTerminationSignal(loop.transport, signal: signal)
        }, signal)
        signals.append(handle)
    }

    private func drainMailbox() {
        for command in mailbox.drain() { perform(command) }
    }

    private func perform(_ command: LoopCommand) {
        switch command {
        case .send(let payload, let id, let key):
            connections[id]?.enqueue(payload, coalescingKey: key)
        case .close(let id):
            connections[id]?.requestClose()
        case .stop:
            beginStop()
        case .attachStdio(let input, let output):
            if stopping {
                command.release()
            } else if let (inputSide, outputSide) = StdioAttachment.open(input: input, output: output, on: self) {
                open(kind: .stdio, input: inputSide, output: outputSide)
            }
        case .adoptListener(let socket):
            if stopping {
                command.release()
            } else if let listener = UnixSocketListener(socket: socket, loop: self) {
                listeners.append(listener)
            }
        }
    }

    func open(kind: ConnectionKind, input: Connection.Input, output: Connection.Output) {
        let id = ConnectionID(rawValue: nextID)
        nextID += 1
        let connection = Connection(id: id, kind: kind, loop: self, input: input, output: output)
        connections[id] = connection
        delegate.transport(transport, didOpen: id, kind: kind)
        connection.startReading()
    }

    func connectionDidClose(_ connection: Connection) {
        connections[connection.id] = nil
        if stopping { finishIfDone() }
    }

    /// Stops accepting and reading, lets queued output drain for a bounded time, then closes all.
    private func beginStop() {
        guard !stopping else { return }
        stopping = true
        for listener in listeners { listener.close() }
        listeners = []
        for connection in Array(connections.values) { connection.requestClose() }
        if !connections.isEmpty {
            let timer = UVHandle.allocate(UV_TIMER)
            uv_timer_init(loop, qt_timer(timer))
            UVHandle.setOwner(timer, self)
            uv_timer_start(qt_timer(timer), { timer in
                guard let loop = UVHandle.owner(of: UnsafeMutableRawPointer(timer), as: EventLoop.self) else { return }
                loop.log("stop: closing \(loop.connections.count) connection(s) with unsent output")
                for connection in Array(loop.connections.values) { connection.closeNow() }
            }, configuration.stopGracePeriodMilliseconds, 0)
            graceTimer = timer
        }
        finishIfDone()
    }

    private func finishIfDone() {
        guard stopping, connections.isEmpty, let async else { return }
        self.async = nil
        // Closed under the mailbox lock before the handle goes: no sender can touch it after.
        for leftover in mailbox.close() { leftover.release() }
        UVHandle.close(async)
        for signal in signals { UVHandle.close(signal) }
        signals = []
        if let graceTimer { UVHandle.close(graceTimer) }
        graceTimer = nil
    }
}
