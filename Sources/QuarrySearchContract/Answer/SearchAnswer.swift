/// The answer to one read of a batch: a search's or a facet-value search's.
public enum SearchAnswer: Sendable, Equatable {
    case search(SearchResponse)
    case facetValues(FacetValuesResponse)
}
