import Dispatch
import QuarryJSON

/// Who is attached to a session: the server's connection ids, opaque here.
public struct SubscriberID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// What a session tells its subscribers.
public enum SessionPush: Sendable {
    case stateChanged(session: String, version: Int, state: JSON)
    /// `exhaustive`: every count in `results` is exact. A first answer that is not is followed by
    /// the exact one, of the same version, unless a newer version started (`Session`).
    case resultsUpdated(session: String, version: Int, results: [SearcherResult], exhaustive: Bool)
}

/// Where pushes go. Called on the session's queue, so one session's pushes
/// are handed over in order; must not block (the server only enqueues bytes).
public protocol SessionOutlet: Sendable {
    func deliver(_ push: SessionPush, to subscribers: [SubscriberID])
}

/// What a session needs from its host: the engine, the outlet, and where
/// searches run (the server's read pool; never the session's queue).
public struct SessionEnvironment: Sendable {
    public typealias Runner = @Sendable (_ session: String, _ job: @escaping @Sendable () -> Void) -> Void

    public let backend: any SearchBackend
    public let outlet: any SessionOutlet
    /// Runs a job for the named session.
    public let runSearch: Runner
    /// Runs the exact search that completes an estimate: apart from `runSearch`, so that the next
    /// keystroke's first answer does not wait behind it. Defaults to `runSearch`.
    public let runCompletion: Runner
    /// How long after an estimate is delivered its exact search starts, unless a newer version
    /// started meanwhile. Started at once, it took the cores while the frontends read the estimate:
    /// on one node beside them, about 1 ms more to a first answer at p50 for one- and two-letter words
    /// (Benchmarks/RESULTS.md, "Refreshes and the exact search kept off the first answer").
    public let completionDelay: DispatchTimeInterval

    public init(backend: any SearchBackend, outlet: any SessionOutlet, runSearch: @escaping Runner, runCompletion: Runner? = nil,
                completionDelay: DispatchTimeInterval = .milliseconds(5)) {
        self.backend = backend
        self.outlet = outlet
        self.runSearch = runSearch
        self.runCompletion = runCompletion ?? runSearch
        self.completionDelay = completionDelay
    }
}

/// A session's state at one version, as replies carry it.
public struct SessionSnapshot: Sendable {
    public let session: String
    public let version: Int
    public let state: SessionState

    public var json: JSONObject {
        ["session": .string(session), "stateVersion": JSON(version), "state": state.json]
    }
}
