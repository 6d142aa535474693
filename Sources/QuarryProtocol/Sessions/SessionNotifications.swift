import QuarryJSON

/// `stateChanged` {session, stateVersion, state}: pushed to every attached
/// connection after each change, before the reply to the request that made it.
public struct StateChangedNotification: ServerNotificationType {
    public static let method = "stateChanged"
    public var session: String
    public var stateVersion: Int
    public var state: JSON

    public init(session: String, stateVersion: Int, state: JSON) {
        self.session = session
        self.stateVersion = stateVersion
        self.state = state
    }

    public var params: JSON { ["session": .string(session), "stateVersion": JSON(stateVersion), "state": state] }
}

/// `resultsUpdated` {session, stateVersion, results, exhaustive}: one result per
/// searcher, in order, for that version. `exhaustive: false` says some counts
/// are estimates, which a second push of the same version with `exhaustive: true`
/// replaces unless a newer version comes first (protocol/methods/resultsUpdated.md).
public struct ResultsUpdatedNotification: ServerNotificationType {
    public static let method = "resultsUpdated"
    public var session: String
    public var stateVersion: Int
    public var results: [JSON]
    /// The server always says; nil leaves the member out.
    public var exhaustive: Bool?

    public init(session: String, stateVersion: Int, results: [JSON], exhaustive: Bool? = nil) {
        self.session = session
        self.stateVersion = stateVersion
        self.results = results
        self.exhaustive = exhaustive
    }

    public var params: JSON {
        var params: JSONObject = ["session": .string(session), "stateVersion": JSON(stateVersion), "results": .array(results)]
        if let exhaustive { params["exhaustive"] = .bool(exhaustive) }
        return .object(params)
    }
}
