import QuarryClient
import QuarryJSON

/// One keystroke of `quarry fzf`: attach to the session (creating it, or its
/// hits searcher, if missing), set the query, and wait for the results of
/// that version or a newer one. Being killed midway (fzf kills the previous
/// reload on each keystroke) only closes a connection, which detaches it.
struct FzfReloader {
    let connection: DaemonConnection
    let index: String
    let hitsPerPage: Int

    init(options: DaemonOptions, index: String, hitsPerPage: Int) throws {
        connection = try options.connect(clientName: "quarry fzf", positionEncodings: ["utf-16"])
        self.index = index
        self.hitsPerPage = hitsPerPage
    }

    /// The hits searcher on `index` and the session's version when attached.
    func attach(session: String) throws -> (searcher: String, version: Int) {
        let spec: JSON = ["type": "hits", "index": .string(index), "hitsPerPage": JSON(hitsPerPage)]
        let opened = try connection.request("openSession", params: ["session": .string(session), "searchers": [spec]])
        let version = opened["stateVersion"]?.intValue ?? 0
        // A hits searcher that shows no hits (a picker's facet counts) is not one to list.
        let existing = opened["state"]?["searchers"]?.arrayValue?.first { searcher in
            searcher["type"]?.stringValue == "hits" && searcher["index"]?.stringValue == index
                && searcher["hitsPerPage"]?.intValue != 0
        }
        if let id = existing?["searcher"]?.stringValue { return (id, version) }
        let added = try connection.request("addHitsSearcher", params: [
            "session": .string(session), "index": .string(index), "hitsPerPage": JSON(hitsPerPage),
        ])
        guard let id = added["searcher"]?.stringValue else { throw FzfError("the daemon named no searcher") }
        return (id, added["stateVersion"]?.intValue ?? version)
    }

    /// The hits searcher's result (`hits`, `nbHits`…) for `query`, or a newer one; with `exact`, the
    /// first such result whose counts are exact (on a cluster, the second push of a version), unless
    /// another frontend's change supersedes it first: then the estimate it completes.
    func results(session: String, query: String, exact: Bool = false) throws -> JSON {
        let (searcher, attachedAt) = try attach(session: session)
        var newest: JSON?
        let collect: (String, JSON) -> Void = { method, params in
            if method == "resultsUpdated", params["session"]?.stringValue == session { newest = params }
        }
        let reply = try connection.request("setQuery", params: ["session": .string(session), "query": .string(query)],
                                           onNotification: collect)
        let version = reply["stateVersion"]?.intValue ?? 0
        var first: JSON?
        while true {
            if let update = newest, (update["stateVersion"]?.intValue ?? 0) >= version {
                if !exact || update["exhaustive"]?.boolValue != false { return try result(of: searcher, in: update["results"]) }
                if let first, first["stateVersion"] != update["stateVersion"] { return try result(of: searcher, in: first["results"]) }
                if first == nil { first = update }
            }
            if version <= attachedAt {
                // The query was already this one: no new results will be pushed; read the current page.
                let page = try connection.request("loadPage", params: [
                    "session": .string(session), "searcher": .string(searcher), "page": 0, "stateVersion": JSON(version),
                ], onNotification: collect)
                return page["result"] ?? page  // {session, stateVersion, searcher, result}
            }
            let message = try connection.readMessage()
            if let method = message["method"]?.stringValue { collect(method, message["params"] ?? .null) }
        }
    }

    private func result(of searcher: String, in results: JSON?) throws -> JSON {
        guard let result = results?.arrayValue?.first(where: { $0["searcher"]?.stringValue == searcher }) else {
            throw FzfError("no results for searcher \(searcher)")
        }
        if let message = result["error"]?["message"]?.stringValue { throw FzfError(message) }
        return result
    }
}

struct FzfError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
