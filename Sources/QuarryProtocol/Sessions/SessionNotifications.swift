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

/// `resultsUpdated` {session, stateVersion, results}: one result per
/// searcher, in order, for that version.
public struct ResultsUpdatedNotification: ServerNotificationType {
    public static let method = "resultsUpdated"
    public var session: String
    public var stateVersion: Int
    public var results: [JSON]

    public init(session: String, stateVersion: Int, results: [JSON]) {
        self.session = session
        self.stateVersion = stateVersion
        self.results = results
    }

    public var params: JSON { ["session": .string(session), "stateVersion": JSON(stateVersion), "results": .array(results)] }
}
