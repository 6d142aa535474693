import QuarryFilters
import QuarrySearchContract

/// What one state version asks of the backend: per searcher, a typed query built straight from
/// the state. Derived on the session's queue, run on a worker.
public struct SearchPlan: Sendable {
    public enum Request: Sendable {
        case hits(index: String, query: SearchQuery)
        /// Nothing to ask: an empty query with `showItemsOnEmptyQuery` false.
        case emptyHits(hitsPerPage: Int?)
        case facetValues(index: String, query: FacetValueQuery)
    }

    /// Which counts the hits searches ask for: `fast` lets a cluster answer sooner with estimates,
    /// which `Session` then completes.
    public typealias Counts = SearchCounts

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
        // Built once per version, shared by every searcher's request.
        let filters = state.filters.searchFilters()
        let menus = state.orderedMenus.map { menu in
            SearchQuery.HierarchicalSelection(attributes: menu.attributes, separator: menu.separator, selected: menu.path(in: state.filters))
        }
        requests = searchers.map { searcher in
            var request = Self.request(for: searcher, in: state, page: page, filters: filters, menus: menus)
            if case .hits(let index, var query) = request {
                query.counts = counts
                request = .hits(index: index, query: query)
            }
            return (searcher, request)
        }
    }

    /// The same searches with exact counts.
    public var exact: SearchPlan {
        SearchPlan(version: version, state: state, page: page, only: searcherID, counts: .exact)
    }

    /// What each searcher asks (protocol/sessions.md):
    /// - hits: the query, page and the searcher's attributes and facets, filtered by the state minus
    ///   its disjunctive or-groups and its hierarchical groups; each disjunctive attribute's or-groups
    ///   as a disjunctive group, whose own counts relax them; each menu as a hierarchical selection
    ///   (hits filtered on the level of its path, each level's counts relaxing the deeper ones); the
    ///   relevant-sort strictness when the toggle set it.
    /// - facet values: the session's query as `facetQuery`, under the same filters, the other
    ///   attributes' disjunctive groups and the menus; the searcher's own or-groups are relaxed.
    static func request(
        for searcher: Searcher, in state: SessionState, page: Int,
        filters: (filter: FilterExpression, disjunctive: [SearchQuery.DisjunctiveGroup]),
        menus: [SearchQuery.HierarchicalSelection]
    ) -> Request {
        var query = SearchQuery()
        if !filters.filter.isEmpty { query.filters = [SearchQuery.NamedFilter(parameter: "filters", expression: filters.filter)] }
        query.hierarchical = menus
        switch searcher.kind {
        case .hits(let hits):
            // Blank is empty, as the engine reads a query of spaces alone.
            if state.query.allSatisfy(\.isWhitespace) && !hits.showItemsOnEmptyQuery {
                return .emptyHits(hitsPerPage: hits.hitsPerPage)
            }
            query.query = state.query
            query.page = page
            query.hitsPerPage = hits.hitsPerPage
            query.attributesToRetrieve = hits.attributesToRetrieve
            query.attributesToHighlight = hits.attributesToHighlight
            // Entries were checked when the searcher was added (`HitsSearcherSpec`).
            query.attributesToSnippet = hits.attributesToSnippet?.compactMap { try? SearchQuery.snippetAttribute($0) }
            let levels = state.orderedMenus.flatMap(\.attributes)
            let facets = hits.facets + levels.filter { !hits.facets.contains($0) }
            if !facets.isEmpty { query.facets = facets }
            query.disjunctive = filters.disjunctive
            query.relevancyStrictness = hits.relevancyStrictness
            return .hits(index: hits.index, query: query)
        case .facets(let facets):
            query.disjunctive = filters.disjunctive.filter { $0.attribute != facets.attribute }
            return .facetValues(index: facets.index, query: FacetValueQuery(attribute: facets.attribute, facetQuery: state.query, search: query))
        }
    }
}
