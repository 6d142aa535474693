import Dispatch
import QuarryJSON

/// Which sessions exist, and who is attached to which. A session nobody is
/// attached to is kept for `gracePeriod` seconds (a frontend reconnecting
/// finds its state), then freed.
///
/// The registry's maps are touched only on its serial queue; it may wait on
/// a session's queue, never the reverse.
public final class SessionRegistry: @unchecked Sendable {
    public let environment: SessionEnvironment
    public let gracePeriod: Double
    private let queue = DispatchQueue(label: "quarry.sessions")
    private var sessions: [String: Session] = [:]
    private var attachments: [SubscriberID: Set<String>] = [:]
    /// Bumped whenever a session's attachments change, so a stale grace timer does nothing.
    private var generations: [String: Int] = [:]
    private var unnamedCount = 0

    public init(environment: SessionEnvironment, gracePeriod: Double) {
        self.environment = environment
        self.gracePeriod = gracePeriod
    }

    /// Attaches `subscriber` to the session `name`, creating it (`created`
    /// true) if it does not exist; with no name, creates `session-N`.
    public func open(_ name: String?, for subscriber: SubscriberID) -> (session: Session, created: Bool) {
        queue.sync {
            let name = name ?? nextUnnamed()
            var created = false
            let session: Session
            if let existing = sessions[name] {
                session = existing
            } else {
                session = Session(name: name, environment: environment)
                sessions[name] = session
                created = true
            }
            session.attach(subscriber)
            attachments[subscriber, default: []].insert(name)
            generations[name, default: 0] += 1
            return (session, created)
        }
    }

    /// The session `name`, or `.sessionNotFound`.
    public func session(_ name: String) throws(SessionError) -> Session {
        guard let session = queue.sync(execute: { sessions[name] }) else { throw .sessionNotFound(name) }
        return session
    }

    /// Detaches `subscriber` from `name`; returns whether it was attached.
    @discardableResult
    public func close(_ name: String, for subscriber: SubscriberID) throws(SessionError) -> Bool {
        let outcome: Result<Bool, SessionError> = queue.sync {
            guard sessions[name] != nil else { return .failure(.sessionNotFound(name)) }
            return .success(detachLocked(name, subscriber))
        }
        return try outcome.get()
    }

    /// Detaches `subscriber` from every session (its connection closed).
    public func detachAll(_ subscriber: SubscriberID) {
        queue.sync {
            for name in attachments[subscriber] ?? [] { _ = detachLocked(name, subscriber) }
            attachments[subscriber] = nil
        }
    }

    /// Every session, by name: its version and how many are attached.
    public func list() -> [JSON] {
        let all = queue.sync { sessions.values.sorted { $0.name < $1.name } }
        return all.map { session in
            let snapshot = session.snapshot()
            return ["session": .string(session.name), "stateVersion": JSON(snapshot.version),
                    "attached": JSON(session.subscriberCount), "searchers": JSON(snapshot.state.searchers.count)]
        }
    }

    // MARK: On `queue`

    private func nextUnnamed() -> String {
        repeat { unnamedCount += 1 } while sessions["session-\(unnamedCount)"] != nil
        return "session-\(unnamedCount)"
    }

    private func detachLocked(_ name: String, _ subscriber: SubscriberID) -> Bool {
        guard let session = sessions[name] else { return false }
        let wasAttached = session.isAttached(subscriber)
        attachments[subscriber]?.remove(name)
        let remaining = session.detach(subscriber)
        generations[name, default: 0] += 1
        if remaining == 0 { scheduleRemoval(name, generation: generations[name] ?? 0) }
        return wasAttached
    }

    private func scheduleRemoval(_ name: String, generation: Int) {
        queue.asyncAfter(deadline: .now() + max(0, gracePeriod)) { [self] in
            guard generations[name] == generation, let session = sessions[name], session.subscriberCount == 0 else { return }
            sessions[name] = nil
            generations[name] = nil
        }
    }
}
