import QuarryJSON
import QuarrySearchContract
import QuarryText

extension Engine {
    /// `searchForFacetValues`: the values of one `searchable()` facet matching `facetQuery`, each
    /// with its count under the optional `query`, filters, `disjunctiveFilters` and
    /// `hierarchicalFacets` of `parameters`; at most `maxFacetHits` (default 10, at most 100).
    /// Returns `{facetHits: [{value, highlighted, count}], exhaustiveFacetsCount, processingTimeMS}`.
    public func searchForFacetValues(
        index name: String, attribute: String, parameters: JSONObject, positionEncoding: PositionEncoding = .utf16
    ) throws(BackendError) -> JSON {
        let (index, replica) = try resolve(name)
        guard let snapshot = index.views.view(replica) else { throw .indexNotFound(name) }
        let (facetQuery, maxFacetHits) = try FacetValueSearch.request(parameters)
        let search = try SearchParameters(json: parameters, settings: snapshot.settings, positionEncoding: positionEncoding)
        return try snapshot.index.searchForFacetValues(attribute: attribute, facetQuery: facetQuery, maxFacetHits: maxFacetHits,
                                                        parameters: search)
    }
}
