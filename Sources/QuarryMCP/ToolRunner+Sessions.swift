import QuarryClient
import QuarryJSON
import QuarryProtocol

/// The session tools. `quarry mcp` attaches to a session like any frontend
/// (openSession), so it hears the session's `resultsUpdated` and its changes
/// reach every other attached frontend (protocol/README.md, "Sharing model").
extension ToolRunner {
    func listSessions() throws -> (JSON, String) {
        let sessions = try daemon("listSessions", [:])["sessions"]?.arrayValue ?? []
        let rows: [JSON] = sessions.map {
            ["session": $0["session"] ?? "", "stateVersion": $0["stateVersion"] ?? 0,
             "attached": $0["attached"] ?? 0, "searchers": $0["searchers"] ?? 0]
        }
        let lines = rows.map { "\($0["session"]?.stringValue ?? ""): \($0["attached"]?.intValue ?? 0) attached" }
        return (["sessions": .array(rows)], ([Self.counted(rows.count, "session") + "."] + lines).joined(separator: "\n"))
    }

    func readSession(_ arguments: ToolArguments) throws -> (JSON, String) {
        let session = arguments.required("session")
        guard let state = try existingState(session) else { throw try noSession(session) }
        let version = try attach(session) ?? state["stateVersion"]?.intValue ?? 0
        return try view(session, state: try currentState(session), atLeast: version)
    }

    func showInSession(_ arguments: ToolArguments) throws -> (JSON, String) {
        let session = arguments.required("session")
        // Filters are checked before anything changes, so a bad one changes nothing.
        let groups = try arguments.string("filters").map(SessionFilterGroups.groups(from:))
        var version: Int
        if try existingState(session) == nil {
            guard let index = arguments.string("index") else {
                throw try noSession(session, extra: " Give `index` to create it.")
            }
            let opened = try daemon("openSession", ["session": .string(session),
                                                    "searchers": [["type": "hits", "index": .string(index)]]], index: index)
            attached.insert(session)
            version = opened["stateVersion"]?.intValue ?? 0
        } else {
            version = try attach(session) ?? 0
        }
        if let groups {
            let changed = try daemon("setFilters", ["session": .string(session), "groups": groups], index: nil)
            version = changed["stateVersion"]?.intValue ?? version
        }
        if let query = arguments.string("query") {
            let changed = try daemon("setQuery", ["session": .string(session), "query": .string(query)], index: nil)
            version = changed["stateVersion"]?.intValue ?? version
        }
        return try view(session, state: try currentState(session), atLeast: version)
    }

    /// The session's state, or nil when no session has that name.
    func existingState(_ session: String) throws -> JSON? {
        do {
            return try daemon("getState", ["session": .string(session)])
        } catch ClientError.rpc(let error) where error.data?["parameter"]?.stringValue == "session" {
            return nil
        }
    }

    func currentState(_ session: String) throws -> JSON {
        try daemon("getState", ["session": .string(session)], index: nil)
    }

    /// Attaches this connection to an existing session once; the version the attach saw, if it did.
    func attach(_ session: String) throws -> Int? {
        guard !attached.contains(session) else { return nil }
        let opened = try daemon("openSession", ["session": .string(session)], index: nil)
        attached.insert(session)
        return opened["stateVersion"]?.intValue
    }

    func noSession(_ session: String, extra: String = "") throws -> ToolFailure {
        let names = (try daemon("listSessions", [:])["sessions"]?.arrayValue ?? []).compactMap { $0["session"]?.stringValue }
        var message = "no session is named `\(session)`."
        if let closest = NameSuggestion.closest(to: session, among: names) { message += " Did you mean `\(closest)`?" }
        message += names.isEmpty ? " There are no sessions." : " The sessions are: \(names.joined(separator: ", "))."
        return ToolFailure(message + extra)
    }

    /// The newest results pushed for `session`, once they are for `version` or later.
    func results(_ session: String, atLeast version: Int) throws -> JSON {
        let link = try currentLink()
        // A deadline, not a count of quiet waits: other sessions' pushes may keep arriving meanwhile.
        let deadline = ContinuousClock.now + .milliseconds(Int(resultsTimeout * 1000))
        while true {
            file(link.takeNotifications())
            if let latest = latestResults[session], (latest["stateVersion"]?.intValue ?? 0) >= version { return latest }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw ToolFailure("the session `\(session)` published no results for version \(version) within "
                    + "\(Int(resultsTimeout)) s; try read_session again.")
            }
            let (seconds, attoseconds) = remaining.components
            _ = try link.waitForNotification(timeout: Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}
