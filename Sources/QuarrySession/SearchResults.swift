import QuarryJSON
import QuarrySearchContract

/// Turns the backend's answers for one `SearchPlan` into the `results` of a
/// `resultsUpdated`: one entry per searcher, in order, refinement lists and
/// relevant-sort texts added. A searcher whose search failed carries `error`.
public enum SearchResults {
    /// Runs every request of `plan` on `backend` (on the caller's thread), together (`searchAll`).
    public static func run(_ plan: SearchPlan, backend: any SearchBackend) -> [SearcherResult] {
        let asked = plan.requests.filter { if case .emptyHits = $0.request { false } else { true } }
        var answers = backend.searchAll(asked.map(\.request)).makeIterator()
        return plan.requests.map { searcher, request in
            do throws(SessionError) {
                if case .emptyHits = request { return try result(searcher, request, state: plan.state, answer: nil) }
                let answer = try (answers.next() ?? .failure(.backend(.storage("no answer for searcher \(searcher.id)")))).get()
                return try result(searcher, request, state: plan.state, answer: answer)
            } catch {
                let type: JSON = if case .facets = searcher.kind { "facets" } else { "hits" }
                return SearcherResult(fields: ["searcher": .string(searcher.id), "type": type, "index": .string(searcher.index),
                                               "error": ["message": .string(error.description)]])
            }
        }
    }

    /// Whether every count in `results` is exact: no hits or facets result says one is an estimate
    /// (`exhaustive.nbHits`, `exhaustive.facetsCount`, or Algolia's older `exhaustiveNbHits` and
    /// `exhaustiveFacetsCount`). A failed searcher has no counts to complete.
    public static func exhaustive(_ results: [SearcherResult]) -> Bool {
        results.allSatisfy { result in
            let fields = result.fields
            let flags = [fields["exhaustive"]?["nbHits"], fields["exhaustive"]?["facetsCount"],
                         fields["exhaustiveNbHits"], fields["exhaustiveFacetsCount"]]
            return !flags.contains { $0?.boolValue == false }
        }
    }

    /// Whether a searcher's search failed.
    public static func failed(_ results: [SearcherResult]) -> Bool {
        results.contains { $0.fields["error"] != nil }
    }

    /// One searcher's result, or the backend's error.
    public static func result(
        _ searcher: Searcher, _ request: SearchPlan.Request, state: SessionState, backend: any SearchBackend
    ) throws(SessionError) -> SearcherResult {
        let answer: SearchAnswer?
        switch request {
        case .hits(let index, let query): answer = .search(try backend.search(index: index, query: query))
        case .emptyHits: answer = nil
        case .facetValues(let index, let query): answer = .facetValues(try backend.searchForFacetValues(index: index, query: query))
        }
        return try result(searcher, request, state: state, answer: answer)
    }

    /// One searcher's result from the backend's `answer` to its request (nil for `.emptyHits`).
    static func result(
        _ searcher: Searcher, _ request: SearchPlan.Request, state: SessionState, answer: SearchAnswer?
    ) throws(SessionError) -> SearcherResult {
        var fields: JSONObject = ["searcher": .string(searcher.id)]
        switch (request, answer) {
        case (.hits(let index, _), .search(let response)?):
            fields["type"] = "hits"
            fields["index"] = .string(index)
            fields.merge(hitsResult(response, searcher: searcher, state: state)) { _, new in new }
            return SearcherResult(fields: fields, hits: response.hits)
        case (.emptyHits(let hitsPerPage), _):
            fields["type"] = "hits"
            fields["index"] = .string(searcher.index)
            let empty = SearchResponse(hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage: hitsPerPage ?? 20, processingTimeMS: 0,
                                       query: "")
            var members = hitsResult(empty, searcher: searcher, state: state)
            for key in ["exhaustiveNbHits", "exhaustiveTypo", "exhaustive", "query"] { members[key] = nil }
            fields.merge(members) { _, new in new }
            return SearcherResult(fields: fields, hits: [])
        case (.facetValues(let index, let query), .facetValues(let response)?):
            fields["type"] = "facets"
            fields["index"] = .string(index)
            fields["attribute"] = .string(query.attribute)
            fields.merge(facetsResult(response, attribute: query.attribute, state: state)) { _, new in new }
            return SearcherResult(fields: fields)
        default:
            throw .backend(.storage("the backend answered searcher \(searcher.id) with the wrong kind of answer"))
        }
    }

    /// The response's members with `facets` as refinement lists and, on a virtual replica,
    /// `relevantSort`; `hits` holds its place for the hits rendered per connection.
    static func hitsResult(_ response: SearchResponse, searcher: Searcher, state: SessionState) -> JSONObject {
        var result = response.members(hits: .null)
        guard case .hits(let hits) = searcher.kind else { return result }
        var attributes = hits.facets
        for menu in state.orderedMenus { attributes += menu.attributes.filter { !attributes.contains($0) } }
        for counted in response.facets ?? [] where !attributes.contains(counted.attribute) { attributes.append(counted.attribute) }
        var facets = JSONObject()
        for attribute in attributes {
            let counts = response.counts(of: attribute)?.values ?? []
            let list: RefinementList
            if let menu = state.orderedMenus.first(where: { $0.attributes.contains(attribute) }) {
                let path = Set(menu.path(in: state.filters).map(menu.levels(of:)) ?? [])
                list = RefinementList(counts: counts, isRefined: { path.contains($0) }, selected: [], order: hits.facetOrder)
            } else {
                let refined = state.filters.refinedValues(of: attribute)
                list = RefinementList(counts: counts, isRefined: { refined.contains($0.lowercased()) },
                                      selected: state.filters.selectedValues(of: attribute), order: hits.facetOrder)
            }
            facets[attribute] = list.json
        }
        result["facets"] = .object(facets)
        if let applied = response.appliedRelevancyStrictness {
            result["relevantSort"] = RelevantSort.json(appliedStrictness: applied)
        }
        return result
    }

    /// The backend's facet hits, each with `isRefined`.
    static func facetsResult(_ response: FacetValuesResponse, attribute: String, state: SessionState) -> JSONObject {
        var result = response.json
        let refined = state.filters.refinedValues(of: attribute)
        result["facetHits"] = .array(response.facetHits.map { hit in
            ["value": .string(hit.value), "highlighted": .string(hit.highlighted), "count": JSON(hit.count),
             "isRefined": .bool(refined.contains(hit.value.lowercased()))]
        })
        return result
    }
}
