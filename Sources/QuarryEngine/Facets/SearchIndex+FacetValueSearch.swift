import QuarryJSON
import QuarrySearchContract
import QuarryText

/// Which values of one facet match what the user types, and how many hits hold each?
///
/// Counts come from the search machinery (the query, filters, disjunctive groups and hierarchical
/// selections of the parameters; an or-group on the attribute itself is relaxed as for its facet
/// list). Values are then matched against `facetQuery` word by word as record text is: prefix on
/// the last word, typos within the usual budget; every query word must match. Best counts first.
extension SearchIndex {
    public func searchForFacetValues(
        attribute: String, facetQuery: String, maxFacetHits: Int, parameters: SearchParameters
    ) throws(BackendError) -> FacetValuesResponse {
        let started = ContinuousClock.now
        try FacetValueSearch.checkSearchable(attribute, settings: settings)
        let counting = FacetValueSearch.countingParameters(parameters, attribute: attribute)
        let response = try search(counting, records: InMemoryRecords([]))
        let counts = response.counts(of: attribute)?.values ?? []
        let hits = FacetValueSearch.facetHits(counts: counts, facetQuery: facetQuery, maxFacetHits: maxFacetHits, parameters: parameters)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        return FacetValuesResponse(facetHits: hits, processingTimeMS: milliseconds)
    }
}
