import QuarryAlgoliaREST
import QuarryJSON
import QuarryServer
import QuarrySync
import QuarryTransport

/// One server connection that every REST request of one key kind shares: opened on the first request
/// (a web id, so `RoutingSink` brings its replies here, handed over on the sending thread), initialized
/// once, and limited like a
/// WebSocket of that key (`WebAccess`). A request's calls go out in order, so a write and the reads
/// after it keep the order the server gives one connection (protocol/README.md, "Ordering guarantees").
/// It closes after `idleSeconds` without a request, so REST traffic that has ended does not keep a daemon
/// from its `--idle-timeout`.
final class RESTLink: Sendable {
    private struct State: Sendable {
        var id: ConnectionID?
        var nextRequest: Int64 = 1
        var waiting: [Int64: ReplySlot] = [:]
        var sweeping = false
    }

    private let server: QuarryServer.Server
    private let connections: WebConnections
    private let access: WebAccess
    private let idleSeconds: Int64
    private let state = Locked(State())

    init(server: QuarryServer.Server, connections: WebConnections, access: WebAccess, idleSeconds: Int64) {
        self.server = server
        self.connections = connections
        self.access = access
        self.idleSeconds = idleSeconds
    }

    /// Sends the calls in order and waits for every reply.
    func send(_ calls: [RPCCall]) async -> [RPCOutcome] {
        await exchange(calls).map(ReplyBytes.outcome)
    }

    /// One call whose result's bytes are the answer, as the server wrote them.
    func forward(_ call: RPCCall) async -> Result<ArraySlice<UInt8>, RPCFailure> {
        guard let reply = await exchange([call]).first else {
            return .failure(RPCFailure(code: -32603, message: "no reply", data: nil))
        }
        if let result = ReplyBytes.result(reply) { return .success(result) }
        switch ReplyBytes.outcome(reply) {
        case .success(let result): return .success(JSONWriter.encode(result)[...])
        case .failure(let failure): return .failure(failure)
        }
    }

    /// The replies' bytes, in the order of the calls.
    private func exchange(_ calls: [RPCCall]) async -> [[UInt8]] {
        var sent: [(ConnectionID, [UInt8])] = []
        let slots: [ReplySlot]? = state.withLock { state in
            guard let id = state.id ?? open(&state) else { return nil }
            return calls.map { call in
                let requestID = state.nextRequest
                state.nextRequest += 1
                let slot = ReplySlot()
                state.waiting[requestID] = slot
                let message: JSON = ["jsonrpc": "2.0", "id": .int(requestID), "method": .string(call.method), "params": call.params]
                sent.append((id, JSONWriter.encode(message)))
                return slot
            }
        }
        guard let slots else {
            return calls.map { _ in ReplyBytes.failure(id: 0, code: -32013, message: "the server is stopping") }
        }
        for (id, bytes) in sent { server.received(bytes, on: id) }
        var replies: [[UInt8]] = []
        for slot in slots { replies.append(await slot.wait()) }
        scheduleSweep()
        return replies
    }

    /// Closes the connection once a whole idle period passed with no request sent and none owed.
    private func scheduleSweep() {
        let start = state.withLock { state -> Int64? in
            guard !state.sweeping else { return nil }
            state.sweeping = true
            return state.nextRequest
        }
        guard let start else { return }
        Task.detached { [self] in
            var seen = start
            while true {
                try? await Task.sleep(for: .seconds(idleSeconds))
                let (idle, id, next) = state.withLock { state -> (Bool, ConnectionID?, Int64) in
                    guard state.nextRequest == seen, state.waiting.isEmpty else { return (false, nil, state.nextRequest) }
                    state.sweeping = false
                    defer { state.id = nil }
                    return (true, state.id, 0)
                }
                if idle {
                    if let id { server.connectionClosed(id) }
                    return
                }
                seen = next
            }
        }
    }

    /// Opens the connection, whose replies `deliver` reads on the thread that sends them; nil once the web
    /// transport has stopped.
    private func open(_ state: inout State) -> ConnectionID? {
        let box = Locked<ConnectionID?>(nil)
        guard let id = connections.open(WebConnections.Receiver(
            receive: { [weak self] bytes in self?.deliver(bytes) },
            closed: { [weak self] in if let self, let id = box.withLock({ $0 }) { self.lost(id) } })) else { return nil }
        box.withLock { $0 = id }
        let access = self.access
        server.connectionOpened(id, kind: .socket, permits: { access.permits($0) })
        let initialize: JSON = ["jsonrpc": "2.0", "id": 0, "method": "initialize",
                                "params": ["clientInfo": ["name": "quarry-algolia-rest"]]]
        server.received(JSONWriter.encode(initialize), on: id)
        server.received(JSONWriter.encode(["jsonrpc": "2.0", "method": "initialized", "params": [:]]), on: id)
        state.id = id
        return id
    }

    private func deliver(_ bytes: [UInt8]) {
        guard let requestID = ReplyBytes.requestID(bytes),
              let slot = state.withLock({ $0.waiting.removeValue(forKey: requestID) }) else { return }
        slot.deliver(bytes)
    }

    /// The connection ended (overflow, stop): what it owed fails, and the next request opens another.
    private func lost(_ id: ConnectionID) {
        let owed = state.withLock { state -> [Int64: ReplySlot] in
            guard state.id == id else { return [:] }
            state.id = nil
            defer { state.waiting = [:] }
            return state.waiting
        }
        connections.remove(id)
        server.connectionClosed(id)
        for (requestID, slot) in owed {
            slot.deliver(ReplyBytes.failure(id: requestID, code: -32013, message: "the server connection was closed"))
        }
    }
}
