import QuarryServer
import QuarrySync
import QuarryTransport

/// The web transport's live connections: ids that never meet the socket transport's, and each
/// one's outbox, which the server's sends reach through `RoutingSink`.
public final class WebConnections: Sendable {
    /// Web ids have this bit set; the socket transport counts up from 1 and never reaches it, and the
    /// server keeps the top bit for sessions' read-pool keys (Server.readPoolKey).
    static let idBit: UInt64 = 1 << 62

    let coalescingThreshold: Int
    let maxQueuedBytes: Int
    private let state = Locked(State())

    private struct State: Sendable {
        var next: UInt64 = 1
        var outboxes: [ConnectionID: WebOutbox] = [:]
        /// Connections read in process (`RESTLink`): what the server sends is handed over on its own thread.
        var receivers: [ConnectionID: Receiver] = [:]
        var stopped = false
    }

    public init(coalescingThreshold: Int = 1 << 20, maxQueuedBytes: Int = 256 << 20) {
        self.coalescingThreshold = coalescingThreshold
        self.maxQueuedBytes = maxQueuedBytes
    }

    public static func owns(_ id: ConnectionID) -> Bool { id.rawValue & idBit != 0 }

    /// A new connection's id and outbox; nil once stopped.
    func open(onOverflow: @escaping @Sendable (ConnectionID) -> Void) -> (ConnectionID, WebOutbox)? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            let id = ConnectionID(rawValue: Self.idBit | state.next)
            state.next += 1
            let outbox = WebOutbox(coalescingThreshold: coalescingThreshold, maxQueuedBytes: maxQueuedBytes) {
                onOverflow(id)
            }
            state.outboxes[id] = outbox
            return (id, outbox)
        }
    }

    /// What an in-process connection is told: each message the server sends, and that it was closed.
    struct Receiver: Sendable {
        let receive: @Sendable ([UInt8]) -> Void
        let closed: @Sendable () -> Void
    }

    /// A new in-process connection's id, whose messages go to `receiver` with no queue or task between;
    /// nil once stopped.
    func open(_ receiver: Receiver) -> ConnectionID? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            let id = ConnectionID(rawValue: Self.idBit | state.next)
            state.next += 1
            state.receivers[id] = receiver
            return id
        }
    }

    func remove(_ id: ConnectionID) {
        state.withLock { state in
            state.outboxes.removeValue(forKey: id)
            state.receivers.removeValue(forKey: id)
        }
    }

    func send(_ payload: [UInt8], to id: ConnectionID, coalescingKey: String?) {
        let (outbox, receiver) = state.withLock { ($0.outboxes[id], $0.receivers[id]) }
        outbox?.send(payload, coalescingKey: coalescingKey)
        receiver?.receive(payload)
    }

    func close(_ id: ConnectionID) {
        let (outbox, receiver) = state.withLock { ($0.outboxes[id], $0.receivers.removeValue(forKey: id)) }
        outbox?.close()
        receiver?.closed()
    }

    /// Flushes and closes every connection; refuses new ones.
    func stop() {
        let (outboxes, receivers) = state.withLock { state in
            state.stopped = true
            defer { state.receivers = [:] }
            return (Array(state.outboxes.values), Array(state.receivers.values))
        }
        for outbox in outboxes { outbox.close() }
        for receiver in receivers { receiver.closed() }
    }

    var count: Int { state.withLock { $0.outboxes.count + $0.receivers.count } }
}
