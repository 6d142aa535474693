import QuarryJSON

/// What exactly a backend runs: one `SearchQuery` with the index settings filling the gaps.
public struct SearchParameters: Sendable {
    public var query: String = ""
    public var page: Int = 0
    public var hitsPerPage: Int
    /// `nil` retrieves every attribute.
    public var attributesToRetrieve: [String]?
    /// `nil` highlights every searchable attribute (every attribute when none are configured).
    public var attributesToHighlight: [String]?
    public var attributesToSnippet: [SnippetAttribute]
    public var highlightPreTag: String
    public var highlightPostTag: String
    public var snippetEllipsisText: String
    public var queryType: QueryType
    public var typoTolerance: TypoTolerance
    public var minWordSizefor1Typo: Int
    public var minWordSizefor2Typos: Int
    public var allowTyposOnNumericTokens: Bool
    public var disableTypoToleranceOnWords: [String]
    public var getRankingInfo: Bool = false
    /// Searchable attributes (paths) to search in; `nil` means all of them.
    public var restrictSearchableAttributes: [String]?
    public var paginationLimitedTo: Int
    /// How many hits to keep per `attributeForDistinct` group; 0 keeps all.
    public var distinct: Int
    /// Filters, facets, geo and relevant sort (see `SearchRefinements`).
    public var refinements: SearchRefinements
    /// A cluster may estimate counts under `fast`; the engine counts exactly either way.
    public var counts = SearchCounts.exact

    public init(settings: IndexSettings) {
        hitsPerPage = settings.hitsPerPage
        attributesToRetrieve = settings.attributesToRetrieve.flatMap { $0.contains("*") ? nil : $0 }
        attributesToHighlight = settings.attributesToHighlight
        attributesToSnippet = settings.attributesToSnippet
        highlightPreTag = settings.highlightPreTag
        highlightPostTag = settings.highlightPostTag
        snippetEllipsisText = settings.snippetEllipsisText
        queryType = settings.queryType
        typoTolerance = settings.typoTolerance
        minWordSizefor1Typo = settings.minWordSizefor1Typo
        minWordSizefor2Typos = settings.minWordSizefor2Typos
        allowTyposOnNumericTokens = settings.allowTyposOnNumericTokens
        disableTypoToleranceOnWords = settings.disableTypoToleranceOnWords
        paginationLimitedTo = settings.paginationLimitedTo
        distinct = settings.distinct
        refinements = SearchRefinements(settings: settings)
    }

    /// `query` resolved against the index's settings: what it leaves out, the settings give; its
    /// refinements are checked against `attributesForFaceting` (see `SearchRefinements`).
    public init(query: SearchQuery, settings: IndexSettings) throws(BackendError) {
        self.init(settings: settings)
        refinements = try SearchRefinements(query: query, settings: settings)
        self.query = query.query
        if let v = query.page { page = v }
        if let v = query.hitsPerPage { hitsPerPage = v }
        if let v = query.attributesToRetrieve { attributesToRetrieve = v.contains("*") ? nil : v }
        if let v = query.attributesToHighlight { attributesToHighlight = v.contains("*") ? nil : v }
        if let v = query.attributesToSnippet { attributesToSnippet = v }
        if let v = query.highlightPreTag { highlightPreTag = v }
        if let v = query.highlightPostTag { highlightPostTag = v }
        if let v = query.snippetEllipsisText { snippetEllipsisText = v }
        if let v = query.queryType { queryType = v }
        if let v = query.typoTolerance { typoTolerance = v }
        if let v = query.minWordSizefor1Typo { minWordSizefor1Typo = v }
        if let v = query.minWordSizefor2Typos { minWordSizefor2Typos = v }
        if let v = query.allowTyposOnNumericTokens { allowTyposOnNumericTokens = v }
        if let v = query.disableTypoToleranceOnWords { disableTypoToleranceOnWords = v }
        getRankingInfo = query.getRankingInfo
        restrictSearchableAttributes = query.restrictSearchableAttributes
        if let v = query.paginationLimitedTo { paginationLimitedTo = v }
        if let v = query.distinct { distinct = v }
        counts = query.counts
    }

}
