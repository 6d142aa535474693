import QuarryJSON

/// What `read_session` and `show_in_session` answer: the session's query and
/// filters, and each searcher's results as the session pushed them, cut to the budget.
extension ToolRunner {
    /// What the session shows: its query and filters, and each searcher's results, cut to the budget.
    func view(_ session: String, state: JSON, atLeast version: Int) throws -> (JSON, String) {
        let searchers = state["state"]?["searchers"]?.arrayValue ?? []
        let version = max(version, state["stateVersion"]?.intValue ?? 0)
        let pushed: JSON = searchers.isEmpty ? ["results": [], "stateVersion": JSON(version)] : try results(session, atLeast: version)
        let items = pushed["results"]?.arrayValue ?? []
        var results: [JSON] = []
        var returned = 0
        var omitted = 0
        // Each searcher's share, less what its counts and refinement lists take beside the hits.
        let share = max(budget.split(max(items.count, 1)) - 600, 500)
        for item in items {
            var row: JSONObject = ["searcher": item["searcher"] ?? "", "type": item["type"] ?? "", "index": item["index"] ?? ""]
            if let error = item["error"] {
                row["error"] = error["message"] ?? error
            } else if item["type"]?.stringValue == "facets" {
                row["attribute"] = item["attribute"] ?? ""
                row["facetHits"] = .array((item["facetHits"]?.arrayValue ?? []).prefix(Self.facetValuesShown).map {
                    ["value": $0["value"] ?? "", "count": $0["count"] ?? 0, "isRefined": $0["isRefined"] ?? false]
                })
            } else {
                row["nbHits"] = item["nbHits"] ?? 0
                if let facets = ReplyBudget.capFacets(item["facets"], values: Self.facetValuesShown) { row["facets"] = facets }
                let hits = (item["hits"]?.arrayValue ?? []).map(HitCompaction.compact)
                row["hits"] = []
                let (kept, left) = ReplyBudget.fit(hits, beside: .object(row), within: share)
                row["hits"] = .array(kept)
                returned += kept.count
                omitted += left
            }
            results.append(.object(row))
        }
        let shown = state["state"]
        var view: JSONObject = [
            "session": .string(session), "stateVersion": pushed["stateVersion"] ?? JSON(version),
            "query": shown?["query"] ?? "", "filters": shown?["filters"] ?? "", "results": .array(results),
            "returnedHits": JSON(returned), "omittedHits": JSON(omitted),
        ]
        if omitted > 0 {
            view["note"] = .string("\(omitted) hits were left out to keep this reply under \(budget.structuredBytes) bytes; "
                + "use the search tool with the session's query and filters to page through them.")
        }
        var lines = ["Session \(session) shows \"\(view["query"]?.stringValue ?? "")\""
            + ((view["filters"]?.stringValue).flatMap { $0.isEmpty ? nil : " with filters \($0)" } ?? "") + "."]
        for row in results {
            let index = row["index"]?.stringValue ?? ""
            if let error = row["error"]?.stringValue {
                lines.append("\(index): \(error)")
            } else if let hits = row["hits"]?.arrayValue {
                lines.append("\(index): " + Self.counted(row["nbHits"]?.intValue ?? 0, "hit") + ".")
                lines += Self.hitSummaries(hits, limit: 5)
            } else {
                lines.append("\(index): \(row["facetHits"]?.arrayValue?.count ?? 0) values of \(row["attribute"]?.stringValue ?? "").")
            }
        }
        return (.object(view), lines.joined(separator: "\n"))
    }
}
