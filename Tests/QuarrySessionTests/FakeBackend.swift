import Foundation
import QuarryJSON
import QuarrySearchContract
import QuarrySession

/// A backend that answers every search with one canned response, counts
/// calls, and can hold searches until released (to make changes overlap a search).
final class FakeBackend: SearchBackend, @unchecked Sendable {
    private let lock = NSLock()
    private let response: JSONObject
    private let settingsByIndex: [String: JSONObject]
    private let failing: Set<String>
    private var _calls = 0
    private var _queries: [String] = []
    private var _inFlight = 0
    private var _maxInFlight = 0
    private var gate: DispatchSemaphore?
    /// Fast searches answer with estimates (as a cluster may); exact ones wait on `exactGate` when set.
    private let estimates: Bool
    private var exactGate: DispatchSemaphore?
    private var _counts: [String] = []

    init(response: JSONObject, settings: [String: JSONObject] = [:], failing: Set<String> = [], gated: Bool = false,
         estimates: Bool = false, exactGated: Bool = false) {
        self.response = response
        settingsByIndex = settings
        self.failing = failing
        gate = gated ? DispatchSemaphore(value: 0) : nil
        self.estimates = estimates
        exactGate = exactGated ? DispatchSemaphore(value: 0) : nil
    }

    /// The `counts` each search asked for ("exact" when absent), in call order.
    var counts: [String] { lock.withLock { _counts } }

    /// Lets one held exact search run.
    func releaseExact() { lock.withLock { exactGate }?.signal() }

    var calls: Int { lock.withLock { _calls } }
    var queries: [String] { lock.withLock { _queries } }
    var maxInFlight: Int { lock.withLock { _maxInFlight } }

    /// Lets held searches run, and every later one.
    func open() {
        let held = lock.withLock { () -> DispatchSemaphore? in
            let held = gate
            gate = nil
            return held
        }
        for _ in 0..<64 { held?.signal() }
    }

    func search(index: String, query: SearchQuery) throws(SessionError) -> SearchResponse {
        let fast = query.counts == .fast
        let gate = lock.withLock { () -> DispatchSemaphore? in
            _calls += 1
            _queries.append(query.query)
            _counts.append(fast ? "fast" : "exact")
            _inFlight += 1
            _maxInFlight = max(_maxInFlight, _inFlight)
            return fast || !estimates ? self.gate : exactGate
        }
        gate?.wait()
        defer { lock.withLock { _inFlight -= 1 } }
        if failing.contains(index) { throw .backend(.indexNotFound(index)) }
        var answer = response
        answer["query"] = .string(query.query)
        if estimates {
            let exact = JSON.bool(!fast)
            answer["exhaustive"] = ["nbHits": exact, "typo": exact, "facetsCount": exact]
            answer["exhaustiveNbHits"] = exact
        }
        return SearchResponse(canned: answer)
    }

    func searchForFacetValues(index: String, query: FacetValueQuery) throws(SessionError) -> FacetValuesResponse {
        lock.withLock { _calls += 1 }
        return FacetValuesResponse(canned: response)
    }

    func settings(index: String) throws(SessionError) -> IndexSettings {
        IndexSettings(canned: settingsByIndex[index] ?? [:])
    }
}

/// Records every push, per subscriber, in the order handed over.
final class RecordingOutlet: SessionOutlet, @unchecked Sendable {
    struct Received: Equatable {
        var method: String
        var version: Int
        var query: String?
        /// For results: whether every count is exact.
        var exhaustive: Bool? = nil

        /// `exhaustive` is compared only when both sides name it.
        static func == (l: Received, r: Received) -> Bool {
            l.method == r.method && l.version == r.version && l.query == r.query
                && (l.exhaustive == nil || r.exhaustive == nil || l.exhaustive == r.exhaustive)
        }
    }

    private let lock = NSLock()
    private var received: [SubscriberID: [Received]] = [:]

    func deliver(_ push: SessionPush, to subscribers: [SubscriberID]) {
        let entry: Received
        switch push {
        case .stateChanged(_, let version, let state): entry = Received(method: "stateChanged", version: version, query: state["query"]?.stringValue)
        case .resultsUpdated(_, let version, let results, let exhaustive):
            entry = Received(method: "resultsUpdated", version: version, query: results.first?.fields["query"]?.stringValue,
                             exhaustive: exhaustive)
        }
        lock.withLock { for subscriber in subscribers { received[subscriber, default: []].append(entry) } }
    }

    func pushes(to subscriber: SubscriberID) -> [Received] { lock.withLock { received[subscriber] ?? [] } }
}
