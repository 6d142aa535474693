import QuarryJSON

/// What one state version asks of the engine: per searcher, the request the
/// engine contract defines. Derived on the session's queue, run on a worker.
public struct SearchPlan: Sendable {
    public enum Request: Sendable {
        /// `search(index, parameters)`.
        case hits(index: String, parameters: JSONObject)
        /// Nothing to ask: an empty query with `showItemsOnEmptyQuery` false.
        case emptyHits(hitsPerPage: Int?)
        /// `searchForFacetValues(index, attribute, parameters)`.
        case facetValues(index: String, attribute: String, parameters: JSONObject)
    }

    /// Which counts the hits searches ask for (the `counts` search parameter, protocol/methods/search.md):
    /// `fast` lets a cluster answer sooner with estimates, which `Session` then completes.
    public enum Counts: String, Sendable {
        case exact, fast
    }

    public let version: Int
    public let state: SessionState
    public let counts: Counts
    public let requests: [(searcher: Searcher, request: Request)]
    private let page: Int
    private let searcherID: String?

    public init(version: Int, state: SessionState, page: Int = 0, only searcherID: String? = nil, counts: Counts = .exact) {
        self.version = version
        self.state = state
        self.counts = counts
        self.page = page
        self.searcherID = searcherID
        let searchers = state.searchers.filter { searcherID == nil || $0.id == searcherID }
        // Rendered once per version, shared by every searcher's request.
        let filters = state.filters.engineFilters()
        let menus: JSON? = state.menus.isEmpty
            ? nil : .array(state.orderedMenus.map { $0.engineJSON(path: $0.path(in: state.filters)) })
        requests = searchers.map { searcher in
            var request = Self.request(for: searcher, in: state, page: page, filters: filters, menus: menus)
            if counts == .fast, case .hits(let index, var parameters) = request {
                parameters["counts"] = .string(counts.rawValue)
                request = .hits(index: index, parameters: parameters)
            }
            return (searcher, request)
        }
    }

    /// The same searches with exact counts.
    public var exact: SearchPlan {
        SearchPlan(version: version, state: state, page: page, only: searcherID, counts: .exact)
    }

    /// The engine contract (what the engine's part 2 implements):
    /// - hits: Algolia's params (`query`, `page`, `hitsPerPage`, `attributesTo…`,
    ///   `facets`) plus `filters` = the state minus disjunctive or-groups and
    ///   minus hierarchical groups; `disjunctiveFilters` {attribute: that
    ///   attribute's or-group clauses}: hits and `nbHits` satisfy `filters` and
    ///   every disjunctive clause, and the counts of each such attribute relax its
    ///   own clauses only; `hierarchicalFacets` [{attributes, separator, path}]:
    ///   hits are filtered on the level of `path` (`"A > B"` on `attributes[1]`),
    ///   and each level's counts, under `facets[level]`, relax the deeper
    ///   selections (level k is filtered on the path's prefix at level k − 1);
    ///   `relevancyStrictness` when the relevant-sort toggle set it.
    /// - facet values: `facetQuery` (the session's query), `filters`, and the
    ///   other attributes' `disjunctiveFilters` and `hierarchicalFacets` applied
    ///   as filters; the searcher's own attribute's or-group clauses are relaxed.
    static func request(
        for searcher: Searcher, in state: SessionState, page: Int,
        filters rendered: (filters: String, disjunctive: [(attribute: String, filters: String)]), menus: JSON?
    ) -> Request {
        let (filters, disjunctive) = rendered
        var parameters: JSONObject = [:]
        if !filters.isEmpty { parameters["filters"] = .string(filters) }
        switch searcher.kind {
        case .hits(let hits):
            // Blank is empty, as the engine reads a query of spaces alone.
            if state.query.allSatisfy(\.isWhitespace) && !hits.showItemsOnEmptyQuery {
                return .emptyHits(hitsPerPage: hits.hitsPerPage)
            }
            parameters["query"] = .string(state.query)
            parameters["page"] = JSON(page)
            if let value = hits.hitsPerPage { parameters["hitsPerPage"] = JSON(value) }
            if let value = hits.attributesToRetrieve { parameters["attributesToRetrieve"] = strings(value) }
            if let value = hits.attributesToHighlight { parameters["attributesToHighlight"] = strings(value) }
            if let value = hits.attributesToSnippet { parameters["attributesToSnippet"] = strings(value) }
            let levels = state.orderedMenus.flatMap(\.attributes)
            let facets = hits.facets + levels.filter { !hits.facets.contains($0) }
            if !facets.isEmpty { parameters["facets"] = strings(facets) }
            if !disjunctive.isEmpty { parameters["disjunctiveFilters"] = object(disjunctive) }
            if let menus { parameters["hierarchicalFacets"] = menus }
            if let value = hits.relevancyStrictness { parameters["relevancyStrictness"] = JSON(value) }
            return .hits(index: hits.index, parameters: parameters)
        case .facets(let facets):
            parameters["facetQuery"] = .string(state.query)
            let others = disjunctive.filter { $0.attribute != facets.attribute }
            if !others.isEmpty { parameters["disjunctiveFilters"] = object(others) }
            if let menus { parameters["hierarchicalFacets"] = menus }
            return .facetValues(index: facets.index, attribute: facets.attribute, parameters: parameters)
        }
    }

    private static func strings(_ values: [String]) -> JSON { .array(values.map(JSON.string)) }

    private static func object(_ pairs: [(attribute: String, filters: String)]) -> JSON {
        .object(JSONObject(pairs.map { ($0.attribute, JSON.string($0.filters)) }, uniquingKeysWith: { first, _ in first }))
    }
}
