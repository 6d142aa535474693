import QuarryJSON
import QuarrySearchContract
import QuarryText

extension Engine {
    /// `searchForFacetValues`: the values of one `searchable()` facet matching the query's
    /// `facetQuery`, each with its count under its search; at most `maxFacetHits`.
    /// Returns `{facetHits: [{value, highlighted, count}], exhaustiveFacetsCount, processingTimeMS}`.
    public func searchForFacetValues(
        index name: String, query: FacetValueQuery
    ) throws(BackendError) -> FacetValuesResponse {
        let (index, replica) = try resolve(name)
        guard let snapshot = index.views.view(replica) else { throw .indexNotFound(name) }
        let search = try SearchParameters(query: query.search, settings: snapshot.settings)
        return try snapshot.index.searchForFacetValues(attribute: query.attribute, facetQuery: query.facetQuery,
                                                        maxFacetHits: query.maxFacetHits, parameters: search)
    }
}
