import QuarryFilters
import QuarryJSON

/// What one search asks, as an edge received it or a session planned it: each parameter it gave,
/// typed, and nil for what it leaves to the index's settings.
///
/// An edge parses Algolia's parameter names once (`init(json:)`); a session builds the value
/// straight from its filter state. Either way a backend resolves it against the index's settings
/// (`SearchParameters(query:settings:)`), which is where attributes are checked against
/// `attributesForFaceting`. Filters are parsed expressions, never strings to parse again.
public struct SearchQuery: Sendable, Equatable {
    public var query = ""
    public var page: Int?
    public var hitsPerPage: Int?
    /// As given: `"*"` among them asks for every attribute.
    public var attributesToRetrieve: [String]?
    public var attributesToHighlight: [String]?
    public var attributesToSnippet: [SnippetAttribute]?
    public var highlightPreTag: String?
    public var highlightPostTag: String?
    public var snippetEllipsisText: String?
    public var queryType: QueryType?
    public var typoTolerance: TypoTolerance?
    public var minWordSizefor1Typo: Int?
    public var minWordSizefor2Typos: Int?
    public var allowTyposOnNumericTokens: Bool?
    public var disableTypoToleranceOnWords: [String]?
    public var getRankingInfo = false
    /// Empty means all of them, as absent does.
    public var restrictSearchableAttributes: [String]?
    public var paginationLimitedTo: Int?
    public var distinct: Int?
    public var counts = SearchCounts.exact

    /// `filters`, `facetFilters`, `numericFilters` and `tagFilters`, in that order, each under the
    /// parameter it came from so that a refusal names it; every one must hold.
    public var filters: [NamedFilter] = []
    /// Each clause that holds adds one to the `filters` ranking criterion; nothing is excluded.
    public var optionalFilters: [[FilterAtom]] = []
    /// Quarry's `disjunctiveFilters`: or-groups relaxed when counting their own attribute.
    public var disjunctive: [DisjunctiveGroup] = []
    /// Quarry's `hierarchicalFacets`.
    public var hierarchical: [HierarchicalSelection] = []
    /// As given: `"*"` counts every countable attribute.
    public var facets: [String]?
    public var maxValuesPerFacet: Int?
    public var sortFacetValuesByAlpha: Bool?
    public var geo: GeoQuery?
    /// Per-query override on a virtual replica.
    public var relevancyStrictness: Int?

    public init() {}

    public struct NamedFilter: Sendable, Equatable {
        public var parameter: String
        public var expression: FilterExpression

        public init(parameter: String, expression: FilterExpression) {
            self.parameter = parameter
            self.expression = expression
        }
    }

    public struct DisjunctiveGroup: Sendable, Equatable {
        public var attribute: String
        public var filter: FilterExpression

        public init(attribute: String, filter: FilterExpression) {
            self.attribute = attribute
            self.filter = filter
        }
    }

    public struct HierarchicalSelection: Sendable, Equatable {
        public var attributes: [String]
        public var separator: String
        /// Components of the selected path; empty when nothing is selected.
        public var path: [String]

        public init(attributes: [String], separator: String, path: [String]) {
            self.attributes = attributes
            self.separator = separator
            self.path = path
        }

        /// The selection of the full path `selected` (`"A > B"`), cut into its components.
        public init(attributes: [String], separator: String, selected: String?) {
            var path: [String] = []
            if let selected, !selected.isEmpty {
                path = Array(SearchQuery.split(selected, separator).map { $0.trimmingSpaces }.prefix(attributes.count))
            }
            self.init(attributes: attributes, separator: separator, path: path)
        }
    }

    /// Every filter the query requires, as one expression.
    public var filter: FilterExpression {
        filters.reduce(FilterExpression.all) { $0.combined(with: $1.expression) }
    }
}

/// Which counts a search asks for (protocol/methods/search.md, `counts`): `fast` lets a cluster
/// answer sooner with estimates, which the response flags; the embedded engine always counts exactly.
public enum SearchCounts: String, Sendable, Equatable {
    case exact, fast
}
