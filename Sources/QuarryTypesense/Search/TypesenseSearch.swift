import QuarryJSON
import QuarrySearchContract
import QuarryText

/// A backend's `search` and `searchForFacetValues` over one collection, answered as the engine
/// answers: resolve the query with `SearchParameters` (same validation, same error texts),
/// translate, run one multi_search through `multiSearch`, assemble.
public enum TypesenseSearch {
    /// Sends `requests` as one `POST /multi_search` and returns its results in order.
    public typealias MultiSearch = ([JSONObject]) throws(BackendError) -> [JSONObject]

    /// `settings`: of the index or replica named `index`; `collection`: the alias to search;
    /// `fields`: the collection's field names. `filter` defaults to `FilterTranslator` over `fields`.
    public static func search(
        index: String, query: SearchQuery, settings: IndexSettings, collection: String, fields: Set<String>,
        highlighting: (any HitHighlighting)?, filter: FilterRendering? = nil, multiSearch: MultiSearch
    ) throws(BackendError) -> SearchResponse {
        let prepared = try prepareSearch(index: index, query: query, settings: settings, collection: collection, fields: fields,
                                         highlighting: highlighting, filter: filter)
        let answer = try prepared.answer(prepared.translation.requests.isEmpty ? [] : try multiSearch(prepared.translation.requests),
                                         multiSearch)
        guard case .search(let response) = answer else { throw .storage("a search was answered as a facet-value search") }
        return response
    }

    /// Typesense's `facet_query` matches prefixes only, without typos; to keep the engine's
    /// matching, every value of the attribute is counted under the query and filters (one
    /// search, no hits) and the engine's `FacetValueSearch` picks, orders and highlights them.
    public static func searchForFacetValues(
        index: String, query: FacetValueQuery, settings: IndexSettings, collection: String,
        fields: Set<String>, filter: FilterRendering? = nil, multiSearch: MultiSearch
    ) throws(BackendError) -> FacetValuesResponse {
        let prepared = try prepareFacetValues(index: index, query: query, settings: settings, collection: collection, fields: fields,
                                              filter: filter)
        let answer = try prepared.answer(prepared.translation.requests.isEmpty ? [] : try multiSearch(prepared.translation.requests),
                                         multiSearch)
        guard case .facetValues(let response) = answer else { throw .storage("a facet-value search was answered as a search") }
        return response
    }

    /// One read, translated: its searches (`translation.requests`) and how its answer is made from
    /// their results, with `MultiSearch` for a second request where a facet's cut needs one.
    public struct Prepared: Sendable {
        public let translation: SearchTranslation
        let assemble: @Sendable (_ results: [JSONObject], _ multiSearch: MultiSearch) throws(BackendError) -> SearchAnswer

        public func answer(_ results: [JSONObject], _ multiSearch: MultiSearch) throws(BackendError) -> SearchAnswer {
            try assemble(results, multiSearch)
        }
    }

    public static func prepareSearch(
        index: String, query: SearchQuery, settings: IndexSettings, collection: String, fields: Set<String>,
        highlighting: (any HitHighlighting)?, filter: FilterRendering? = nil
    ) throws(BackendError) -> Prepared {
        let started = ContinuousClock.now
        let parameters = try SearchParameters(query: query, settings: settings)
        let translation = try SearchTranslation(index: index, parameters: parameters, settings: settings, collection: collection,
                                                fields: fields, filter: filter ?? defaultFilter(fields), highlighting: highlighting,
                                                counts: parameters.counts)
        return Prepared(translation: translation) { results, multiSearch throws(BackendError) in
            let (facets, exhaustive) = try settle(translation, results, multiSearch)
            return .search(try ResponseAssembly.response(translation, table: facets, highlighting: highlighting,
                                                         processingTimeMS: milliseconds(since: started), exhaustive: exhaustive))
        }
    }

    public static func prepareFacetValues(
        index: String, query: FacetValueQuery, settings: IndexSettings, collection: String,
        fields: Set<String>, filter: FilterRendering? = nil
    ) throws(BackendError) -> Prepared {
        let started = ContinuousClock.now
        let (attribute, facetQuery, maxFacetHits) = (query.attribute, query.facetQuery, query.maxFacetHits)
        let parameters = try SearchParameters(query: query.search, settings: settings)
        try FacetValueSearch.checkSearchable(attribute, settings: settings)
        let counting = FacetValueSearch.countingParameters(parameters, attribute: attribute)
        let translation = try SearchTranslation(index: index, parameters: counting, settings: settings, collection: collection,
                                                fields: fields, filter: filter ?? defaultFilter(fields), highlighting: nil)
        return Prepared(translation: translation) { results, multiSearch throws(BackendError) in
            let (facets, _) = try settle(translation, results, multiSearch)
            let response = try ResponseAssembly.response(translation, table: facets, highlighting: nil, processingTimeMS: 0,
                                                         exhaustive: .exact)
            let hits = FacetValueSearch.facetHits(counts: response.counts(of: attribute)?.values ?? [], facetQuery: facetQuery,
                                                  maxFacetHits: maxFacetHits, parameters: parameters)
            return .facetValues(FacetValuesResponse(facetHits: hits, processingTimeMS: milliseconds(since: started)))
        }
    }

    /// The translation's results (`results`: its multi_search's) with their facet counts decoded, with,
    /// where a tie spans Typesense's cut of a facet's values, a second multi_search counting every value
    /// of those facets (`FacetRefetch`). In `SearchCounts.fast` there is no second one, and `exhaustive`
    /// says which counts may be estimates.
    static func settle(_ translation: SearchTranslation, _ results: [JSONObject], _ multiSearch: MultiSearch)
        throws(BackendError) -> (facets: FacetCountTable, exhaustive: Exhaustiveness)
    {
        let nbHits = translation.counts == .exact || !translation.hasWords
        let facets = FacetCountTable(results)
        guard !translation.requests.isEmpty else { return (facets, .exact) }
        guard let refetch = FacetRefetch(translation, facets: facets) else {
            return (facets, Exhaustiveness(nbHits: nbHits, facetsCount: nbHits))
        }
        guard translation.counts == .exact else { return (facets, Exhaustiveness(nbHits: nbHits, facetsCount: false)) }
        return (FacetCountTable(try refetch.merged(results, with: try multiSearch(refetch.requests))), .exact)
    }

    static func defaultFilter(_ fields: Set<String>) -> FilterRendering {
        let translator = FilterTranslator(collectionFields: fields)
        return { expression in translator.translate(expression) }
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
