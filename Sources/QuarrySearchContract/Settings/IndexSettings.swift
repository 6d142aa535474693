import QuarryJSON

/// An index's settings, with Algolia's names and defaults.
///
/// Parsed from (and rendered back to) the JSON users export from Algolia; see
/// `IndexSettings+JSON.swift`. Settings the engine does not act on are kept in
/// `unsupported` and reported, never dropped.
public struct IndexSettings: Sendable, Equatable {
    /// In priority order; one entry may hold several attributes of equal priority ("a,b").
    /// Empty means every attribute of the record, in record order.
    public var searchableAttributes: [SearchableAttribute] = []
    /// `nil` retrieves every attribute.
    public var attributesToRetrieve: [String]? = nil
    public var ranking: [RankingCriterion] = RankingCriterion.defaultRanking
    public var customRanking: [CustomRankingCriterion] = []
    public var queryType: QueryType = .prefixLast
    public var typoTolerance: TypoTolerance = .enabled
    public var minWordSizefor1Typo: Int = 4
    public var minWordSizefor2Typos: Int = 8
    public var allowTyposOnNumericTokens: Bool = true
    public var disableTypoToleranceOnAttributes: [String] = []
    public var disableTypoToleranceOnWords: [String] = []
    /// `nil` highlights every searchable attribute.
    public var attributesToHighlight: [String]? = nil
    public var attributesToSnippet: [SnippetAttribute] = []
    public var highlightPreTag: String = "<em>"
    public var highlightPostTag: String = "</em>"
    public var snippetEllipsisText: String = "…"
    public var hitsPerPage: Int = 20
    public var paginationLimitedTo: Int = 1000
    /// How many hits to keep per distinct group; 0 disables distinct.
    public var distinct: Int = 0
    public var attributeForDistinct: String? = nil
    public var attributesForFaceting: [FacetAttribute] = []
    public var maxValuesPerFacet: Int = 100
    public var replicas: [ReplicaReference] = []
    public var relevancyStrictness: Int = 100
    /// Settings accepted and stored but not acted on, by name, as given.
    public var unsupported: JSONObject = [:]
    /// On a replica: the primary index whose records it ranks (Algolia's read-only
    /// `primary`, legacy `master`). Set by the engine, never by setSettings.
    public var primary: String? = nil
    /// On a replica listed as `virtual(name)` by its primary: relevant sort applies.
    public var isVirtualReplica: Bool = false

    public init() {}
}

public struct SearchableAttribute: Sendable, Equatable {
    /// Dotted paths (`a.b`) of equal priority.
    public var paths: [String]
    /// `false` for `unordered(attr)`: the position inside the attribute does not count.
    public var ordered: Bool

    public init(paths: [String], ordered: Bool = true) {
        self.paths = paths
        self.ordered = ordered
    }
}

public enum RankingCriterion: Sendable, Equatable {
    case typo, geo, words, filters, proximity, attribute, exact, custom
    case asc(String)
    case desc(String)

    public static let defaultRanking: [RankingCriterion] =
        [.typo, .geo, .words, .filters, .proximity, .attribute, .exact, .custom]
}

public struct CustomRankingCriterion: Sendable, Equatable {
    public var attribute: String
    public var ascending: Bool

    public init(attribute: String, ascending: Bool) {
        self.attribute = attribute
        self.ascending = ascending
    }
}

public enum QueryType: String, Sendable, Equatable {
    case prefixLast, prefixAll, prefixNone
}

public enum TypoTolerance: Sendable, Equatable {
    /// `true`: words of `minWordSizefor1Typo`/`minWordSizefor2Typos` letters allow 1/2 typos.
    case enabled
    /// `false`: no typos.
    case disabled
    /// `min`: only the hits with the fewest typos are kept.
    case min
    /// `strict`: only the hits with the fewest typos, or one more, are kept.
    case strict
}

public struct SnippetAttribute: Sendable, Equatable {
    public var attribute: String
    /// Words around the best match; Algolia's default is 10.
    public var words: Int

    public init(attribute: String, words: Int = 10) {
        self.attribute = attribute
        self.words = words
    }
}

public struct FacetAttribute: Sendable, Equatable {
    public enum Modifier: Sendable, Equatable { case none, searchable, filterOnly }
    public var attribute: String
    public var modifier: Modifier

    public init(attribute: String, modifier: Modifier = .none) {
        self.attribute = attribute
        self.modifier = modifier
    }
}

public struct ReplicaReference: Sendable, Equatable {
    public var name: String
    /// `virtual(name)`: shares the primary's records and ranks with relevant sort.
    public var isVirtual: Bool

    public init(name: String, isVirtual: Bool) {
        self.name = name
        self.isVirtual = isVirtual
    }
}
