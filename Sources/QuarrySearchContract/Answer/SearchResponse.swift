import QuarryJSON

/// What a search answers, shaped like Algolia's response.
public struct SearchResponse: Sendable {
    /// Each hit: the retrieved attributes, `objectID`, `_highlightResult`, `_snippetResult` (when asked),
    /// `_rankingInfo` (when `getRankingInfo`) and `_matchRanges` (see `Highlighter`).
    public var hits: [JSONObject]
    public var nbHits: Int
    public var page: Int
    public var nbPages: Int
    public var hitsPerPage: Int
    public var processingTimeMS: Int
    public var query: String
    public var params: String?
    /// False when some bound kept matches from being counted (none applies today).
    public var exhaustiveNbHits: Bool
    /// False when typo expansion was bounded (none applies today).
    public var exhaustiveTypo: Bool
    /// Fields of part 2 (`facets`, `facets_stats`, `appliedRelevancyStrictness`, `nbSortedHits`…).
    public var extra: JSONObject = [:]

    /// Public so that a remote backend (QuarryTypesense) renders its answers through this same `json()`.
    public init(
        hits: [JSONObject], nbHits: Int, page: Int, nbPages: Int, hitsPerPage: Int, processingTimeMS: Int, query: String,
        params: String?, exhaustiveNbHits: Bool, exhaustiveTypo: Bool, extra: JSONObject
    ) {
        self.hits = hits
        self.nbHits = nbHits
        self.page = page
        self.nbPages = nbPages
        self.hitsPerPage = hitsPerPage
        self.processingTimeMS = processingTimeMS
        self.query = query
        self.params = params
        self.exhaustiveNbHits = exhaustiveNbHits
        self.exhaustiveTypo = exhaustiveTypo
        self.extra = extra
    }

    public func json() -> JSON {
        var object = JSONObject()
        object["hits"] = .array(hits.map { .object($0) })
        object["nbHits"] = JSON(nbHits)
        object["page"] = JSON(page)
        object["nbPages"] = JSON(nbPages)
        object["hitsPerPage"] = JSON(hitsPerPage)
        object["exhaustiveNbHits"] = .bool(exhaustiveNbHits)
        object["exhaustiveTypo"] = .bool(exhaustiveTypo)
        object["exhaustive"] = ["nbHits": .bool(exhaustiveNbHits), "typo": .bool(exhaustiveTypo)]
        if let facetsCount = extra["exhaustiveFacetsCount"] {
            object["exhaustive"] = ["nbHits": .bool(exhaustiveNbHits), "typo": .bool(exhaustiveTypo), "facetsCount": facetsCount]
        }
        for (key, value) in extra { object[key] = value }
        object["query"] = .string(query)
        if let params { object["params"] = .string(params) }
        object["processingTimeMS"] = JSON(processingTimeMS)
        return .object(object)
    }
}
