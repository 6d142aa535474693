import QuarryJSON

/// Turns the engine's answers for one `SearchPlan` into the `results` of a
/// `resultsUpdated`: one entry per searcher, in order, refinement lists and
/// relevant-sort texts added. A searcher whose search failed carries `error`.
public enum SearchResults {
    /// Runs every request of `plan` on `backend` (on the caller's thread), together (`searchAll`).
    public static func run(_ plan: SearchPlan, backend: any SearchBackend) -> [JSON] {
        let asked = plan.requests.filter { if case .emptyHits = $0.request { false } else { true } }
        var answers = backend.searchAll(asked.map(\.request)).makeIterator()
        return plan.requests.map { searcher, request in
            do throws(SessionError) {
                if case .emptyHits = request { return try result(searcher, request, state: plan.state, response: [:]) }
                let response = try (answers.next() ?? .failure(.backend("no answer for searcher \(searcher.id)"))).get()
                return try result(searcher, request, state: plan.state, response: response)
            } catch {
                let type: JSON = if case .facets = searcher.kind { "facets" } else { "hits" }
                return ["searcher": .string(searcher.id), "type": type, "index": .string(searcher.index),
                        "error": ["message": .string(error.description)]]
            }
        }
    }

    /// Whether every count in `results` is exact: no hits or facets result says one is an estimate
    /// (`exhaustive.nbHits`, `exhaustive.facetsCount`, or Algolia's older `exhaustiveNbHits` and
    /// `exhaustiveFacetsCount`). A failed searcher has no counts to complete.
    public static func exhaustive(_ results: [JSON]) -> Bool {
        results.allSatisfy { result in
            let flags = [result["exhaustive"]?["nbHits"], result["exhaustive"]?["facetsCount"],
                         result["exhaustiveNbHits"], result["exhaustiveFacetsCount"]]
            return !flags.contains { $0?.boolValue == false }
        }
    }

    /// Whether a searcher's search failed.
    public static func failed(_ results: [JSON]) -> Bool {
        results.contains { $0["error"] != nil }
    }

    /// One searcher's result, or the engine's error.
    public static func result(
        _ searcher: Searcher, _ request: SearchPlan.Request, state: SessionState, backend: any SearchBackend
    ) throws(SessionError) -> JSON {
        let response: JSONObject
        switch request {
        case .hits(let index, let parameters): response = try backend.search(index: index, parameters: parameters)
        case .emptyHits: response = [:]
        case .facetValues(let index, let attribute, let parameters):
            response = try backend.searchForFacetValues(index: index, attribute: attribute, parameters: parameters)
        }
        return try result(searcher, request, state: state, response: response)
    }

    /// One searcher's result from the backend's `response` to its request.
    static func result(
        _ searcher: Searcher, _ request: SearchPlan.Request, state: SessionState, response: JSONObject
    ) throws(SessionError) -> JSON {
        var result: JSONObject = ["searcher": .string(searcher.id)]
        switch request {
        case .hits(let index, _):
            result["type"] = "hits"
            result["index"] = .string(index)
            result.merge(hitsResult(response, searcher: searcher, state: state)) { _, new in new }
        case .emptyHits(let hitsPerPage):
            result["type"] = "hits"
            result["index"] = .string(searcher.index)
            let empty: JSONObject = ["hits": [], "nbHits": 0, "page": 0, "nbPages": 0,
                                     "hitsPerPage": JSON(hitsPerPage ?? 20), "processingTimeMS": 0, "facets": [:]]
            result.merge(hitsResult(empty, searcher: searcher, state: state)) { _, new in new }
        case .facetValues(let index, let attribute, _):
            result["type"] = "facets"
            result["index"] = .string(index)
            result["attribute"] = .string(attribute)
            result.merge(facetsResult(response, attribute: attribute, state: state)) { _, new in new }
        }
        return .object(result)
    }

    /// The engine's response with `facets` as refinement lists and, on a
    /// virtual replica, `relevantSort`.
    static func hitsResult(_ response: JSONObject, searcher: Searcher, state: SessionState) -> JSONObject {
        guard case .hits(let hits) = searcher.kind else { return response }
        var result = response
        let counts = response["facets"]?.objectValue ?? [:]
        var attributes = hits.facets
        for menu in state.orderedMenus { attributes += menu.attributes.filter { !attributes.contains($0) } }
        for attribute in counts.keys where !attributes.contains(attribute) { attributes.append(attribute) }
        var facets = JSONObject()
        for attribute in attributes {
            let list: RefinementList
            if let menu = state.orderedMenus.first(where: { $0.attributes.contains(attribute) }) {
                let path = Set(menu.path(in: state.filters).map(menu.levels(of:)) ?? [])
                list = RefinementList(counts: counts[attribute]?.objectValue ?? [:], isRefined: { path.contains($0) },
                                      selected: [], order: hits.facetOrder)
            } else {
                let refined = state.filters.refinedValues(of: attribute)
                list = RefinementList(counts: counts[attribute]?.objectValue ?? [:], isRefined: { refined.contains($0.lowercased()) },
                                      selected: state.filters.selectedValues(of: attribute), order: hits.facetOrder)
            }
            facets[attribute] = list.json
        }
        result["facets"] = .object(facets)
        if let applied = response["appliedRelevancyStrictness"]?.intValue {
            result["relevantSort"] = RelevantSort.json(appliedStrictness: applied)
        }
        return result
    }

    /// The engine's facet hits, each with `isRefined`.
    static func facetsResult(_ response: JSONObject, attribute: String, state: SessionState) -> JSONObject {
        var result = response
        let refined = state.filters.refinedValues(of: attribute)
        let hits = (response["facetHits"]?.arrayValue ?? []).map { hit -> JSON in
            guard var object = hit.objectValue else { return hit }
            object["isRefined"] = .bool(refined.contains(object["value"]?.stringValue?.lowercased() ?? ""))
            return .object(object)
        }
        result["facetHits"] = .array(hits)
        return result
    }
}
