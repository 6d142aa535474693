import QuarryJSON
import QuarrySearchContract
import QuarryText

/// A backend's `search` and `searchForFacetValues` over one collection, answered as the engine
/// answers: parse with the engine's own `SearchParameters` (same validation, same error texts),
/// translate, run one multi_search through `multiSearch`, assemble.
public enum TypesenseSearch {
    /// Sends `requests` as one `POST /multi_search` and returns its results in order.
    public typealias MultiSearch = ([JSONObject]) throws(BackendError) -> [JSONObject]

    /// `settings`: of the index or replica named `index`; `collection`: the alias to search;
    /// `fields`: the collection's field names. `filter` defaults to `FilterTranslator` over `fields`.
    public static func search(
        index: String, parameters json: JSONObject, settings: IndexSettings, collection: String, fields: Set<String>,
        positionEncoding: PositionEncoding, alsoOtherRanges: Bool, highlighting: (any HitHighlighting)?,
        filter: FilterRendering? = nil, multiSearch: MultiSearch
    ) throws(BackendError) -> JSON {
        let prepared = try prepareSearch(index: index, parameters: json, settings: settings, collection: collection, fields: fields,
                                         positionEncoding: positionEncoding, alsoOtherRanges: alsoOtherRanges,
                                         highlighting: highlighting, filter: filter)
        return try prepared.answer(prepared.translation.requests.isEmpty ? [] : try multiSearch(prepared.translation.requests),
                                   multiSearch)
    }

    /// Typesense's `facet_query` matches prefixes only, without typos; to keep the engine's
    /// matching, every value of the attribute is counted under the query and filters (one
    /// search, no hits) and the engine's `FacetValueSearch` picks, orders and highlights them.
    public static func searchForFacetValues(
        index: String, attribute: String, parameters json: JSONObject, settings: IndexSettings, collection: String,
        fields: Set<String>, positionEncoding: PositionEncoding, filter: FilterRendering? = nil, multiSearch: MultiSearch
    ) throws(BackendError) -> JSON {
        let prepared = try prepareFacetValues(index: index, attribute: attribute, parameters: json, settings: settings,
                                              collection: collection, fields: fields, positionEncoding: positionEncoding, filter: filter)
        return try prepared.answer(prepared.translation.requests.isEmpty ? [] : try multiSearch(prepared.translation.requests),
                                   multiSearch)
    }

    /// One read, translated: its searches (`translation.requests`) and how its answer is made from
    /// their results, with `MultiSearch` for a second request where a facet's cut needs one.
    public struct Prepared: Sendable {
        public let translation: SearchTranslation
        let assemble: @Sendable (_ results: [JSONObject], _ multiSearch: MultiSearch) throws(BackendError) -> JSON

        public func answer(_ results: [JSONObject], _ multiSearch: MultiSearch) throws(BackendError) -> JSON {
            try assemble(results, multiSearch)
        }
    }

    public static func prepareSearch(
        index: String, parameters json: JSONObject, settings: IndexSettings, collection: String, fields: Set<String>,
        positionEncoding: PositionEncoding, alsoOtherRanges: Bool, highlighting: (any HitHighlighting)?, filter: FilterRendering? = nil
    ) throws(BackendError) -> Prepared {
        let started = ContinuousClock.now
        var parameters = try SearchParameters(json: json, settings: settings, positionEncoding: positionEncoding)
        parameters.alsoOtherRanges = alsoOtherRanges
        let translation = try SearchTranslation(index: index, parameters: parameters, settings: settings, collection: collection,
                                                fields: fields, filter: filter ?? defaultFilter(fields), highlighting: highlighting,
                                                counts: CountMode(json))
        return Prepared(translation: translation) { results, multiSearch throws(BackendError) in
            let (results, exhaustive) = try settle(translation, results, multiSearch)
            return try ResponseAssembly.response(translation, results: results, highlighting: highlighting,
                                                 processingTimeMS: milliseconds(since: started), exhaustive: exhaustive)
        }
    }

    public static func prepareFacetValues(
        index: String, attribute: String, parameters json: JSONObject, settings: IndexSettings, collection: String,
        fields: Set<String>, positionEncoding: PositionEncoding, filter: FilterRendering? = nil
    ) throws(BackendError) -> Prepared {
        let started = ContinuousClock.now
        let (facetQuery, maxFacetHits) = try FacetValueSearch.request(json)
        let parameters = try SearchParameters(json: json, settings: settings, positionEncoding: positionEncoding)
        try FacetValueSearch.checkSearchable(attribute, settings: settings)
        let counting = FacetValueSearch.countingParameters(parameters, attribute: attribute)
        let translation = try SearchTranslation(index: index, parameters: counting, settings: settings, collection: collection,
                                                fields: fields, filter: filter ?? defaultFilter(fields), highlighting: nil)
        return Prepared(translation: translation) { results, multiSearch throws(BackendError) in
            let (results, _) = try settle(translation, results, multiSearch)
            let response = try ResponseAssembly.response(translation, results: results, highlighting: nil, processingTimeMS: 0)
            let counts = response["facets"]?[attribute]?.objectValue ?? [:]
            let hits = FacetValueSearch.facetHits(counts: counts, facetQuery: facetQuery, maxFacetHits: maxFacetHits,
                                                  parameters: parameters)
            return FacetValueSearch.response(hits, processingTimeMS: milliseconds(since: started))
        }
    }

    /// The translation's results (`results`: its multi_search's) with, where a tie spans Typesense's
    /// cut of a facet's values, a second multi_search counting every value of those facets
    /// (`FacetRefetch`). In `CountMode.fast` there is no second one, and `exhaustive` says which
    /// counts may be estimates.
    static func settle(_ translation: SearchTranslation, _ results: [JSONObject], _ multiSearch: MultiSearch)
        throws(BackendError) -> (results: [JSONObject], exhaustive: Exhaustiveness)
    {
        let nbHits = translation.counts == .exact || !translation.hasWords
        guard !translation.requests.isEmpty else { return ([], .exact) }
        guard let refetch = FacetRefetch(translation, results: results) else {
            return (results, Exhaustiveness(nbHits: nbHits, facetsCount: nbHits))
        }
        guard translation.counts == .exact else { return (results, Exhaustiveness(nbHits: nbHits, facetsCount: false)) }
        return (try refetch.merged(results, with: try multiSearch(refetch.requests)), .exact)
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
