import Dispatch
import QuarryJSON
import QuarrySync

extension TypesenseCluster {
    /// Probes every node's `GET /debug` at once, records what each said and
    /// caches the leader; nil when no node says it leads.
    @discardableResult
    func discoverLeader() -> Int? {
        recordRoles(probeAll(probeRole))
    }

    /// Caches what a probe of every node found; logs a change of leader.
    @discardableResult
    func recordRoles(_ states: [NodeState]) -> Int? {
        let leader = states.firstIndex(of: .leader)
        let changed = state.withLock { state in
            state.nodeStates = states
            state.leader = leader
            defer { state.reportedLeader = .some(leader) }
            return state.reportedLeader != .some(leader)
        }
        if changed, let log {
            log(leader.map { "Typesense: the leader is \(nodes[$0])" }
                ?? "Typesense: no leader; " + zip(nodes, states).map { "\($0): \($1)" }.joined(separator: "; "))
        }
        return leader
    }

    /// Forgets `node` as the leader after it failed a call, unless another was found meanwhile.
    func forgetLeader(_ node: Int) {
        state.withLock { state in
            if state.leader == node { state.leader = nil }
        }
    }

    /// `body` for every node concurrently, results in node order.
    func probeAll<T: Sendable>(_ body: @Sendable (Int) -> T) -> [T] {
        let results = Locked<[T?]>(Array(repeating: nil, count: nodes.count))
        DispatchQueue.concurrentPerform(iterations: nodes.count) { node in
            let value = body(node)
            results.withLock { $0[node] = value }
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    @Sendable func probeRole(_ node: Int) -> NodeState {
        switch probe(node, path: "/debug") {
        case .success(let json):
            guard let raftState = json["state"]?.intValue else { return .unreachable("no state in /debug") }
            return NodeState(raftState: raftState)
        case .failure(let reason):
            return .unreachable(reason)
        }
    }

    /// A GET answered by `node` alone, with the probe timeout and no retry.
    func probe(_ node: Int, path: String) -> Result<JSON, ProbeFailure> {
        let request = TypesenseRequest(.get, path, kind: .read)
        switch attempt(request, on: node, timeout: options.probeTimeout) {
        case .answered(let response):
            guard let json = try? JSONParser.parse(response.body) else { return .failure(ProbeFailure("unparsable \(path)")) }
            return .success(json)
        case .rejected(let error):
            return .failure(ProbeFailure(error.description))
        case .failed(let failure):
            return .failure(ProbeFailure(failure.text))
        }
    }

    struct ProbeFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension NodeState {
    static func unreachable(_ failure: TypesenseCluster.ProbeFailure) -> NodeState {
        .unreachable(failure.description)
    }
}
