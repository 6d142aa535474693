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

    func remove(_ id: ConnectionID) {
        _ = state.withLock { $0.outboxes.removeValue(forKey: id) }
    }

    func send(_ payload: [UInt8], to id: ConnectionID, coalescingKey: String?) {
        state.withLock { $0.outboxes[id] }?.send(payload, coalescingKey: coalescingKey)
    }

    func close(_ id: ConnectionID) {
        state.withLock { $0.outboxes[id] }?.close()
    }

    /// Flushes and closes every connection; refuses new ones.
    func stop() {
        let all = state.withLock { state in
            state.stopped = true
            return Array(state.outboxes.values)
        }
        for outbox in all { outbox.close() }
    }

    var count: Int { state.withLock { $0.outboxes.count } }
}
