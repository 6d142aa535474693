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
    case resultsUpdated(session: String, version: Int, results: [JSON])
}

/// Where pushes go. Called on the session's queue, so one session's pushes
/// are handed over in order; must not block (the server only enqueues bytes).
public protocol SessionOutlet: Sendable {
    func deliver(_ push: SessionPush, to subscribers: [SubscriberID])
}

/// What a session needs from its host: the engine, the outlet, and where
/// searches run (the server's read pool; never the session's queue).
public struct SessionEnvironment: Sendable {
    public let backend: any SearchBackend
    public let outlet: any SessionOutlet
    /// Runs a job for the named session.
    public let runSearch: @Sendable (_ session: String, _ job: @escaping @Sendable () -> Void) -> Void

    public init(backend: any SearchBackend, outlet: any SessionOutlet,
                runSearch: @escaping @Sendable (_ session: String, _ job: @escaping @Sendable () -> Void) -> Void) {
        self.backend = backend
        self.outlet = outlet
        self.runSearch = runSearch
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
