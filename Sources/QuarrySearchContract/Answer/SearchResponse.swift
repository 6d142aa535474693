import QuarryJSON

/// What a search answers, typed: both backends build it, and it becomes Algolia's JSON response
/// only where a reply or push is written (`json(in:)`), in that connection's position encoding.
public struct SearchResponse: Sendable, Equatable {
    public var hits: [SearchHit]
    public var nbHits: Int
    public var page: Int
    public var nbPages: Int
    public var hitsPerPage: Int
    public var processingTimeMS: Int
    public var query: String
    public var params: String?
    /// False when some bound kept matches from being counted (a cluster's fast counts).
    public var exhaustiveNbHits: Bool
    /// False when typo expansion was bounded (none applies today).
    public var exhaustiveTypo: Bool
    /// nil when no facet was counted.
    public var exhaustiveFacetsCount: Bool?
    /// The counted attributes, in the order asked; nil when `facets` asked none.
    public var facets: [FacetCounts]?
    public var facetsStats: [FacetStats] = []
    /// Attributes named in `facets` that are not counted, each with why (protocol/methods/search.md).
    public var facetsNotCounted: [FacetNotCounted] = []
    /// The query holds no word (only separators): every record matches, as for an empty query.
    public var queryHasNoWords = false
    /// On a virtual replica: the strictness applied, and how many hits were sorted by relevance.
    public var appliedRelevancyStrictness: Int?
    public var nbSortedHits: Int?

    public init(
        hits: [SearchHit], nbHits: Int, page: Int, nbPages: Int, hitsPerPage: Int, processingTimeMS: Int, query: String,
        params: String? = nil, exhaustiveNbHits: Bool = true, exhaustiveTypo: Bool = true
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
    }

    /// The counts of `attribute`, when it was counted.
    public func counts(of attribute: String) -> FacetCounts? {
        facets?.first { $0.attribute == attribute }
    }

    /// Algolia's response, hits' `_matchRanges` in `encoding`.
    public func json(in encoding: PositionEncoding) -> JSON {
        .object(members(hits: .array(hits.map { .object($0.json(in: encoding)) })))
    }

    /// The response's members, with `hits` as given (a placeholder where they are rendered later).
    public func members(hits renderedHits: JSON) -> JSONObject {
        var object = JSONObject()
        object["hits"] = renderedHits
        object["nbHits"] = JSON(nbHits)
        object["page"] = JSON(page)
        object["nbPages"] = JSON(nbPages)
        object["hitsPerPage"] = JSON(hitsPerPage)
        object["exhaustiveNbHits"] = .bool(exhaustiveNbHits)
        object["exhaustiveTypo"] = .bool(exhaustiveTypo)
        var exhaustive: JSONObject = ["nbHits": .bool(exhaustiveNbHits), "typo": .bool(exhaustiveTypo)]
        if let exhaustiveFacetsCount { exhaustive["facetsCount"] = .bool(exhaustiveFacetsCount) }
        object["exhaustive"] = .object(exhaustive)
        if let facets {
            object["facets"] = .object(JSONObject(facets.map { ($0.attribute, JSON.object($0.json)) }, uniquingKeysWith: { a, _ in a }))
            if !facetsStats.isEmpty {
                object["facets_stats"] = .object(JSONObject(facetsStats.map { ($0.attribute, JSON.object($0.json)) },
                                                            uniquingKeysWith: { a, _ in a }))
            }
        }
        if let exhaustiveFacetsCount { object["exhaustiveFacetsCount"] = .bool(exhaustiveFacetsCount) }
        if !facetsNotCounted.isEmpty {
            object["facetsNotCounted"] = .object(JSONObject(facetsNotCounted.map { ($0.attribute, JSON.string($0.reason)) },
                                                            uniquingKeysWith: { a, _ in a }))
        }
        if queryHasNoWords { object["queryHasNoWords"] = true }
        if let appliedRelevancyStrictness { object["appliedRelevancyStrictness"] = JSON(appliedRelevancyStrictness) }
        if let nbSortedHits { object["nbSortedHits"] = JSON(nbSortedHits) }
        object["query"] = .string(query)
        if let params { object["params"] = .string(params) }
        object["processingTimeMS"] = JSON(processingTimeMS)
        return object
    }
}
