import QuarryJSON

/// What `searchForFacetValues` asks: the values of one `searchable()` facet that match `facetQuery`,
/// each counted under `search` (its query, filters, disjunctive groups and hierarchical selections).
public struct FacetValueQuery: Sendable, Equatable {
    public var attribute: String
    public var facetQuery = ""
    /// 1 to 100.
    public var maxFacetHits = 10
    public var search = SearchQuery()

    public init(attribute: String, facetQuery: String = "", maxFacetHits: Int = 10, search: SearchQuery = SearchQuery()) {
        self.attribute = attribute
        self.facetQuery = facetQuery
        self.maxFacetHits = maxFacetHits
        self.search = search
    }

    /// `facetQuery` (default "") and `maxFacetHits` (default 10, 1 to 100) beside a search's parameters.
    public init(attribute: String, json: JSONObject) throws(BackendError) {
        let reader = ParameterReader(json)
        self.init(attribute: attribute, facetQuery: try reader.string("facetQuery") ?? "",
                  maxFacetHits: try reader.int("maxFacetHits", min: 1, max: 100, expected: "an integer between 1 and 100") ?? 10,
                  search: try SearchQuery(json: json))
    }
}
