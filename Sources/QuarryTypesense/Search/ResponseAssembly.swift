import QuarryJSON
import QuarrySearchContract
import QuarryText

/// The engine's search response from the results of a `SearchTranslation`'s multi_search.
///
/// Hits are the stored records (`_q_record`), cut to `attributesToRetrieve` as the engine does
/// (top-level names, then `objectID`), then the highlighting members. `nbHits` is Typesense's
/// `found`, or with distinct the engine's rule (each value's hits up to the limit, plus the hits
/// without a value) from the distinct attribute's counts. The answer is the contract's
/// `SearchResponse`, which both backends render alike.
public enum ResponseAssembly {
    /// `results`: the multi_search results, one per `translation.requests` (searches known to find
    /// nothing were not sent and read as empty).
    /// `exhaustive`: which counts are exact (`SearchCounts.fast` may leave them estimates).
    public static func response(
        _ translation: SearchTranslation, results: [JSONObject], highlighting: (any HitHighlighting)?, processingTimeMS: Int,
        exhaustive: Exhaustiveness = .exact
    ) throws(BackendError) -> SearchResponse {
        try response(translation, table: FacetCountTable(results), highlighting: highlighting,
                     processingTimeMS: processingTimeMS, exhaustive: exhaustive)
    }

    /// `table`: the results, with their facet counts decoded once (`TypesenseSearch.settle`).
    static func response(
        _ translation: SearchTranslation, table: FacetCountTable, highlighting: (any HitHighlighting)?, processingTimeMS: Int,
        exhaustive: Exhaustiveness
    ) throws(BackendError) -> SearchResponse {
        let parameters = translation.parameters
        let results = table.results
        guard results.count == translation.requests.count else {
            throw .storage("Typesense answered \(results.count) searches of \(translation.requests.count)")
        }
        for result in results { try check(result, index: translation.index) }
        // Each search's position among the results (nil: not sent, read as empty).
        var positions: [Int?] = []
        var sent = 0
        for search in translation.searches {
            positions.append(search.parameters == nil ? nil : sent)
            if search.parameters != nil { sent += 1 }
        }
        let position = { (i: Int) -> Int? in i < positions.count ? positions[i] : nil }
        let result = { (i: Int) -> JSONObject? in position(i).map { results[$0] } }

        // Hits, from the pages fetched, sliced to the window.
        var fetched: [JSON] = []
        for (i, search) in translation.searches.enumerated() {
            guard case .hits = search.purpose, let answer = result(i) else { continue }
            if let groups = answer["grouped_hits"]?.arrayValue {
                for group in groups { fetched += group["hits"]?.arrayValue ?? [] }
            } else {
                fetched += answer["hits"]?.arrayValue ?? []
            }
        }
        if let distinct = translation.distinct, distinct.limit > 1 {
            // Groups come whole, in the order of their best hit; the engine ranks the hits left
            // after distinct one by one. Ties keep Typesense's order.
            let ordering = translation.ordering
            fetched = fetched.enumerated().sorted { a, b in
                let c = ordering.compare(a.element, b.element)
                return c != 0 ? c < 0 : a.offset < b.offset
            }.map(\.element)
        }
        let window = translation.window
        var hits: [SearchHit] = []
        if window.start < window.end {
            let from = window.start - window.firstFetched, to = min(window.end - window.firstFetched, fetched.count)
            if from < to {
                for hit in fetched[from..<to] { hits.append(try Self.hit(hit, parameters: parameters, highlighting: highlighting)) }
            }
        }

        var nbHits = result(0)?["found"]?.intValue ?? 0
        if let distinct = translation.distinct, let r = position(distinct.search) {
            let total = results[r]["found"]?.intValue ?? 0
            let counts = table.counts(r, field: distinct.field)
            let withValue = counts.reduce(0) { $0 + $1.1 }
            nbHits = counts.reduce(0) { $0 + min($1.1, distinct.limit) } + max(0, total - withValue)
        }
        let hitsPerPage = parameters.hitsPerPage
        let pages = hitsPerPage == 0 ? 0 : min((nbHits + hitsPerPage - 1) / hitsPerPage,
                                               (parameters.paginationLimitedTo + hitsPerPage - 1) / hitsPerPage)

        var response = SearchResponse(hits: hits, nbHits: nbHits, page: parameters.page, nbPages: pages, hitsPerPage: hitsPerPage,
                                      processingTimeMS: processingTimeMS, query: parameters.query,
                                      exhaustiveNbHits: exhaustive.nbHits, exhaustiveTypo: exhaustive.nbHits)
        let plan = translation.plan
        if !plan.counted.isEmpty {
            let refinements = parameters.refinements
            var facets: [FacetCounts] = [], stats: [FacetStats] = []
            for counted in plan.counted {
                var counts: [(String, Int)] = []
                if let source = translation.facetSources[counted.attribute], let r = position(source.search) {
                    counts = table.counts(r, field: source.field)
                }
                let values = FacetAssembly.values(counts, limit: refinements.maxValuesPerFacet, alpha: refinements.sortFacetValuesByAlpha,
                                                  selected: plan.selected[counted.attribute] ?? [])
                facets.append(FacetCounts(attribute: counted.attribute, values: values))
                if translation.numericAttributes.contains(counted.attribute), let stat = FacetAssembly.stats(counts, of: counted.attribute) {
                    stats.append(stat)
                }
            }
            response.facets = facets
            response.facetsStats = stats
            response.exhaustiveFacetsCount = exhaustive.facetsCount
        }
        response.facetsNotCounted = parameters.refinements.facetsNotCounted
        response.queryHasNoWords = QueryWords.holdsNoWord(parameters.query)
        if let strictness = translation.strictness {
            response.appliedRelevancyStrictness = strictness
            // Only strictness 0 keeps every hit sorted; otherwise Typesense cannot say how many hits are.
            if strictness == 0 { response.nbSortedHits = nbHits }
        }
        return response
    }

    /// The engine's hit: retrieved attributes, `objectID`, then what highlighting adds.
    static func hit(_ hit: JSON, parameters: SearchParameters, highlighting: (any HitHighlighting)?) throws(BackendError) -> SearchHit {
        guard let text = hit["document"]?[FieldNames.record]?.stringValue else {
            throw .storage("a Typesense hit has no \(FieldNames.record)")
        }
        let parsed: JSON
        do { parsed = try JSONParser.parse(text) } catch { throw .storage("a stored record does not parse: \(error)") }
        guard let record = parsed.objectValue else { throw .storage("a stored record is not an object") }
        var result = JSONObject()
        if let retrieve = parameters.attributesToRetrieve {
            for name in retrieve { if let value = record[name] { result[name] = value } }
        } else {
            for (key, value) in record { result[key] = value }
        }
        result["objectID"] = record["objectID"] ?? .null
        var ranges = HitRanges()
        if let highlighting {
            let highlighted = highlighting.members(record: record, typesenseHit: hit.objectValue ?? [:], parameters: parameters)
            for (key, value) in highlighted.members { result[key] = value }
            ranges = highlighted.ranges
        }
        return SearchHit(record: result, ranges: ranges)
    }

    /// `(value, count)` of one field in a result's `facet_counts`.
    static func facetCounts(_ result: JSONObject, field: String) -> [(String, Int)] {
        guard let entry = facetEntry(result, field: field) else { return [] }
        return (entry["counts"]?.arrayValue ?? []).compactMap { item in
            guard let value = item["value"]?.stringValue, let count = item["count"]?.intValue else { return nil }
            return (FacetText.decode(value), count)
        }
    }

    /// One field's entry in a result's `facet_counts`.
    static func facetEntry(_ result: JSONObject, field: String) -> JSONObject? {
        result["facet_counts"]?.arrayValue?.first(where: { $0["field_name"]?.stringValue == field })?.objectValue
    }

    /// A failed search of the batch: a missing collection is a missing index, anything else is Typesense's fault.
    static func check(_ result: JSONObject, index: String) throws(BackendError) {
        guard result["found"] == nil, let message = result["error"]?.stringValue else { return }
        let code = result["code"]?.intValue ?? 0
        if code == 404 && message.hasPrefix("Not found") { throw .indexNotFound(index) }
        throw .storage("Typesense refused a search (\(code)): \(message)")
    }
}
