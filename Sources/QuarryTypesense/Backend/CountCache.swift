import Dispatch
import QuarryJSON
import QuarrySearchContract
import QuarrySync

/// Answers of count-only searches without text (`q: "*"`, `per_page: 0`), kept for a moment.
///
/// A facets searcher counts every value of its attribute under the session's filters, and picks the
/// values matching the keystroke itself (`FacetValueSearch`): the count does not depend on the text
/// typed, so a session sends the very same search on every keystroke, and on a large collection it is
/// the dearest search of the keystroke (Benchmarks/RESULTS.md, "Where Typesense's time goes in the fast
/// body"). Its answer depends only on the records, so it is kept under the same rule as the catalogue
/// (`IndexCatalog`):
/// - any write through this daemon drops every kept answer (`TypesenseCluster.writesNoted`), so a
///   read after a write sees it;
/// - another daemon's writes show within `maxAge` while someone types: past it, a kept answer younger
///   than `staleLimit` still answers while one refresh runs on `refresher` (once `gate` lets it); an
///   older one is asked again on the caller's thread.
final class CountCache: Sendable {
    /// One multi_search, sent from `refresher` too.
    typealias Send = @Sendable ([JSONObject]) throws(BackendError) -> [JSONObject]

    private struct Kept {
        var result: JSONObject
        var readAt: ContinuousClock.Instant
        /// `writesNoted` when the search was sent.
        var writes: Int
    }

    private let maxAge: Duration
    private let staleLimit: Duration
    private let capacity: Int
    private let kept = Locked<[String: Kept]>([:])
    private let refresher = DispatchQueue(label: "quarry.typesense.counts")
    /// When `refresher` may start.
    private let gate: RefreshGate
    /// Keys `refresher` is about to ask again.
    private let refreshing = Locked<Set<String>>([])

    init(gate: RefreshGate = RefreshGate(), maxAge: Duration = .seconds(1), staleLimit: Duration = .seconds(30), capacity: Int = 256) {
        self.gate = gate
        self.maxAge = maxAge
        self.staleLimit = staleLimit
        self.capacity = capacity
    }

    /// The key of a search whose answer can be kept; nil for any other.
    static func key(_ search: JSONObject) -> String? {
        guard search["q"]?.stringValue == "*", search["per_page"]?.intValue == 0 else { return nil }
        return JSONWriter.string(.object(search))
    }

    /// `searches`' results in order, as `send` (one multi_search) would give them: kept answers are
    /// taken, only the others are sent, and their countable answers kept. `writes` reads the write
    /// count now (`TypesenseCluster.writesNoted`).
    func multiSearch(_ searches: [JSONObject], writes: @escaping @Sendable () -> Int,
                     send: @escaping Send) throws(BackendError) -> [JSONObject] {
        let now = ContinuousClock.now
        let writesNow = writes()
        let keys = searches.map(Self.key)
        var results = [JSONObject?](repeating: nil, count: searches.count)
        var stale: [(key: String, search: JSONObject)] = []
        kept.withLock { kept in
            for (i, key) in keys.enumerated() {
                guard let key, let entry = kept[key], entry.writes == writesNow else { continue }
                let age = now - entry.readAt
                guard age < staleLimit else { continue }
                results[i] = entry.result
                if age >= maxAge { stale.append((key, searches[i])) }
            }
        }
        for (key, search) in stale where refreshing.withLock({ $0.insert(key).inserted }) {
            gate.whenIdle { [self] in
                refresher.async { [self] in
                    defer { refreshing.withLock { _ = $0.remove(key) } }
                    let began = (ContinuousClock.now, writes())
                    if let fresh = try? send([search]).first { keep(key, fresh, readAt: began.0, writes: began.1) }
                }
            }
        }
        let missing = results.indices.filter { results[$0] == nil }
        if !missing.isEmpty {
            let answers = try send(missing.map { searches[$0] })
            for (i, answer) in zip(missing, answers) {
                results[i] = answer
                if let key = keys[i] { keep(key, answer, readAt: now, writes: writesNow) }
            }
        }
        return results.compactMap { $0 }
    }

    private func keep(_ key: String, _ result: JSONObject, readAt: ContinuousClock.Instant, writes: Int) {
        kept.withLock { kept in
            if let current = kept[key], current.writes > writes || current.readAt > readAt { return }
            if kept[key] == nil && kept.count >= capacity, let oldest = kept.min(by: { $0.value.readAt < $1.value.readAt }) {
                kept[oldest.key] = nil
            }
            kept[key] = Kept(result: result, readAt: readAt, writes: writes)
        }
    }
}
