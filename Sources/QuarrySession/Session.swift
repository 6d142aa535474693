import Dispatch
import QuarryJSON

/// A live, named session shared by any number of connections (protocol/README.md
/// "Sharing model").
///
/// Changes apply one at a time on the session's serial `queue`, in the order
/// they reach it. Each bumps `version` and pushes `stateChanged` to every
/// subscriber before `change` returns (so before the caller's reply), then a
/// search of the newest state is scheduled: at most one is in flight, and
/// changes made meanwhile are searched together afterwards (latest wins).
/// Results for version v go only to subscribers that were not told of a newer
/// version, so no subscriber sees an older version after a newer one.
///
/// Searches first ask for fast counts (`SearchPlan.Counts.fast`); when the
/// backend says some are estimates (a Typesense cluster can), the same plan
/// runs again with exact counts and its results go out as a second
/// `resultsUpdated` of the same version, flagged exhaustive. That completion
/// is skipped when a newer version exists by the time either search ends,
/// so it never follows a newer version's first answer. At most one runs per
/// session; a later version's completion waits for it.
///
/// Every stored property below `queue` is touched only on `queue`.
public final class Session: @unchecked Sendable {
    public let name: String
    let environment: SessionEnvironment
    let queue: DispatchQueue

    private var state = SessionState()
    private var version = 0
    /// Attached subscribers, in attach order, and the newest version each was told of.
    private var subscribers: [SubscriberID] = []
    private var toldVersion: [SubscriberID: Int] = [:]
    /// The version of the newest results each subscriber was sent.
    private var resultsVersion: [SubscriberID: Int] = [:]
    private var searchInFlight = false
    private var searchPending = false
    private var latestResults: (version: Int, results: [SearcherResult], exhaustive: Bool)?
    private var completionInFlight = false
    /// The plan to complete once the running completion ends (if still current then).
    private var completionWanted: SearchPlan?

    public init(name: String, environment: SessionEnvironment) {
        self.name = name
        self.environment = environment
        queue = DispatchQueue(label: "quarry.session.\(name)")
    }

    public func snapshot() -> SessionSnapshot {
        queue.sync { currentSnapshot }
    }

    public var subscriberCount: Int { queue.sync { subscribers.count } }

    /// Attaches `subscriber` (again is harmless) and returns the state it now knows.
    @discardableResult
    public func attach(_ subscriber: SubscriberID) -> SessionSnapshot {
        queue.sync {
            if toldVersion[subscriber] == nil { subscribers.append(subscriber) }
            toldVersion[subscriber] = max(toldVersion[subscriber] ?? 0, version)
            return currentSnapshot
        }
    }

    /// Detaches `subscriber`; returns how many remain attached.
    @discardableResult
    public func detach(_ subscriber: SubscriberID) -> Int {
        queue.sync {
            resultsVersion[subscriber] = nil
            if toldVersion.removeValue(forKey: subscriber) != nil { subscribers.removeAll { $0 == subscriber } }
            return subscribers.count
        }
    }

    public func isAttached(_ subscriber: SubscriberID) -> Bool { queue.sync { toldVersion[subscriber] != nil } }

    /// Applies one change: `body` edits a copy of the state (nothing changes
    /// if it throws); then the version is bumped, `stateChanged` pushed and a
    /// search scheduled. Returns `body`'s value and the new snapshot.
    public func change<T>(
        _ body: (inout SessionState, any SearchBackend) throws(SessionError) -> T
    ) throws(SessionError) -> (value: T, snapshot: SessionSnapshot) {
        let outcome: Result<(value: T, snapshot: SessionSnapshot), SessionError> = queue.sync {
            var next = state
            do throws(SessionError) {
                let value = try body(&next, environment.backend)
                state = next
                version += 1
                publishState()
                scheduleSearch()
                return .success((value, currentSnapshot))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The plan for one page of one hits searcher at `version`, if that is
    /// still the current version (else `.superseded`, ContentModified).
    public func pagePlan(searcher id: String, page: Int, version requested: Int) throws(SessionError) -> SearchPlan {
        let outcome: Result<SearchPlan, SessionError> = queue.sync {
            guard requested == version else {
                return .failure(requested < version
                    ? .superseded(requested: requested, current: version)
                    : .invalidParameter("stateVersion", "a version the session reached (it is at \(version)), got \(requested)"))
            }
            do throws(SessionError) {
                _ = try state.hitsSearcher(id)
                return .success(SearchPlan(version: version, state: state, page: page, only: id))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Pushes the newest results to `subscriber` if they are for the version it
    /// knows (a frontend that just attached); otherwise they are on their way.
    public func sendLatestResults(to subscriber: SubscriberID) {
        queue.async { [self] in
            guard let latest = latestResults, let told = toldVersion[subscriber], latest.version >= told,
                  latest.version > resultsVersion[subscriber] ?? -1 else { return }
            toldVersion[subscriber] = latest.version
            resultsVersion[subscriber] = latest.version
            environment.outlet.deliver(.resultsUpdated(session: name, version: latest.version, results: latest.results,
                                                       exhaustive: latest.exhaustive), to: [subscriber])
        }
    }

    // MARK: On `queue`

    private var currentSnapshot: SessionSnapshot { SessionSnapshot(session: name, version: version, state: state) }

    private func publishState() {
        for subscriber in subscribers { toldVersion[subscriber] = version }
        guard !subscribers.isEmpty else { return }
        environment.outlet.deliver(.stateChanged(session: name, version: version, state: state.json), to: subscribers)
    }

    private func scheduleSearch() {
        guard !searchInFlight else {
            searchPending = true
            return
        }
        searchInFlight = true
        let plan = SearchPlan(version: version, state: state, counts: .fast)
        let backend = environment.backend
        environment.runSearch(name) { [self] in
            let results = SearchResults.run(plan, backend: backend)
            queue.async { self.searchFinished(plan, results: results) }
        }
    }

    private func searchFinished(_ plan: SearchPlan, results: [SearcherResult]) {
        searchInFlight = false
        let exhaustive = SearchResults.exhaustive(results)
        deliver(version: plan.version, results: results, exhaustive: exhaustive)
        if searchPending {
            searchPending = false
            scheduleSearch()
        } else if !exhaustive {
            // Not at once: the frontends first read and show the estimate (`completionDelay`).
            let exact = plan.exact
            queue.asyncAfter(deadline: .now() + environment.completionDelay) { [self] in
                if exact.version == version { scheduleCompletion(exact) }
            }
        }
    }

    private func scheduleCompletion(_ plan: SearchPlan) {
        guard !completionInFlight else {
            completionWanted = plan
            return
        }
        completionInFlight = true
        let backend = environment.backend
        environment.runCompletion(name) { [self] in
            let results = SearchResults.run(plan, backend: backend)
            queue.async { self.completionFinished(plan, results: results) }
        }
    }

    private func completionFinished(_ plan: SearchPlan, results: [SearcherResult]) {
        completionInFlight = false
        // Only while no newer version exists, so never after a newer version's first answer; and
        // only exact counts replace estimates (a failed search keeps them).
        if plan.version == version, SearchResults.exhaustive(results), !SearchResults.failed(results) {
            deliver(version: plan.version, results: results, exhaustive: true)
        }
        if let wanted = completionWanted {
            completionWanted = nil
            if wanted.version == version { scheduleCompletion(wanted) }
        }
    }

    private func deliver(version searched: Int, results: [SearcherResult], exhaustive: Bool) {
        let targets = subscribers.filter { (toldVersion[$0] ?? .max) <= searched }
        for subscriber in targets {
            toldVersion[subscriber] = searched
            resultsVersion[subscriber] = searched
        }
        if !targets.isEmpty {
            environment.outlet.deliver(.resultsUpdated(session: name, version: searched, results: results, exhaustive: exhaustive),
                                       to: targets)
        }
        // After the push, which need not wait for the results these replace to be freed.
        if searched >= (latestResults?.version ?? 0) { latestResults = (searched, results, exhaustive) }
    }
}
