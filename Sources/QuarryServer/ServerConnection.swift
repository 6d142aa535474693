import Dispatch
import QuarryProtocol
import QuarryTransport
import QuarrySync
import QuarrySearchContract

/// What the server knows of one connection. Messages of a connection are
/// decoded in arrival order on `queue`; the requests' work may run elsewhere.
final class ServerConnection: Sendable {
    enum Phase: Sendable { case awaitingInitialize, running, shutDown }

    struct State: Sendable {
        var phase = Phase.awaitingInitialize
        var positionEncoding = PositionEncoding.utf16
        var inFlight: [RequestID: CancellationToken] = [:]
        /// The peer can no longer read replies: every request is cancelled, even one not begun yet.
        var peerLost = false
    }

    let id: ConnectionID
    let kind: ConnectionKind
    /// Which methods the connection may call: all of them but on a web connection with a search-only key.
    let permits: @Sendable (String) -> Bool
    let queue: DispatchQueue
    /// Entered for every request until its reply is sent, so end of input can
    /// wait for the replies still owed.
    let pending = DispatchGroup()
    /// Writes this connection sent that have not finished: what it sends next waits for them.
    let writes = PendingWrites()
    let state = Locked(State())

    init(id: ConnectionID, kind: ConnectionKind, permits: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.id = id
        self.kind = kind
        self.permits = permits
        queue = DispatchQueue(label: "quarry.connection.\(id.rawValue)")
    }

    var phase: Phase { state.withLock { $0.phase } }

    var positionEncoding: PositionEncoding { state.withLock { $0.positionEncoding } }

    func begin(_ request: RequestID) -> CancellationToken {
        let token = CancellationToken()
        pending.enter()
        let lost = state.withLock { state in
            state.inFlight[request] = token
            return state.peerLost
        }
        if lost { token.cancel() }
        return token
    }

    func end(_ request: RequestID, token: CancellationToken) {
        state.withLock { state in
            if state.inFlight[request] === token { state.inFlight[request] = nil }
        }
        pending.leave()
    }

    func cancel(_ request: RequestID) {
        state.withLock { $0.inFlight[request] }?.cancel()
    }

    /// Cancels every request in flight and any begun later; returns how many were in flight.
    func peerLost() -> Int {
        let tokens = state.withLock { state in
            state.peerLost = true
            return Array(state.inFlight.values)
        }
        for token in tokens { token.cancel() }
        return tokens.count
    }
}
