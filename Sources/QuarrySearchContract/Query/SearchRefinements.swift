import QuarryFilters
import QuarryJSON

/// What narrows, counts or reorders a search beyond its text: filters, facets, geo, relevant sort.
///
/// Resolved from a `SearchQuery` against the index's settings (what a session asks so that or-groups
/// and hierarchical menus are counted in one pass). Facet filters must name attributes declared in
/// `attributesForFaceting`; the error names the attribute and the setting to change.
public struct SearchRefinements: Sendable {
    /// `filters` AND `facetFilters` AND `numericFilters` AND `tagFilters`.
    public var filter = FilterExpression.all
    /// Each clause that holds adds one to the `filters` ranking criterion; nothing is excluded.
    public var optionalFilters: [[FilterAtom]] = []
    /// Or-groups whose own refinements are relaxed when counting their attribute.
    public var disjunctive: [DisjunctiveFacet] = []
    public var hierarchical: [HierarchicalFacet] = []
    /// Attributes to count; nil counts none.
    public var facets: [String]? = nil
    /// Attributes named in `facets` that are not counted, each with why. Algolia leaves them out
    /// silently; the response says so in `facetsNotCounted` (protocol/methods/search.md).
    public var facetsNotCounted: [FacetNotCounted] = []
    public var maxValuesPerFacet: Int
    public var sortFacetValuesByAlpha = false
    public var geo: GeoQuery? = nil
    /// Per-query override on a virtual replica.
    public var relevancyStrictness: Int? = nil

    public struct DisjunctiveFacet: Sendable {
        public var attribute: String
        public var filter: FilterExpression
        /// The values the group selects on its own attribute (listed with 0 when they match nothing).
        public var selected: [String]
    }

    public struct HierarchicalFacet: Sendable {
        public var attributes: [String]
        public var separator: String
        /// Components of the selected path; empty when nothing is selected.
        public var path: [String]

        /// The selection down to level `level`, joined as stored in that level's attribute.
        package func value(atLevel level: Int) -> String { path[0...level].joined(separator: separator) }
    }

    public init(settings: IndexSettings) {
        maxValuesPerFacet = settings.maxValuesPerFacet
    }

    /// True when the plain text search path answers alone.
    package var isEmpty: Bool {
        filter.isEmpty && optionalFilters.isEmpty && disjunctive.isEmpty && hierarchical.isEmpty && facets == nil && geo == nil
    }

    /// The query's refinements, checked against the index's `attributesForFaceting`: facet filters,
    /// disjunctive groups and hierarchical levels must name declared attributes; attributes in
    /// `facets` that cannot be counted are listed in `facetsNotCounted`.
    public init(query: SearchQuery, settings: IndexSettings) throws(BackendError) {
        self.init(settings: settings)
        let declared = Set(settings.attributesForFaceting.map(\.attribute))
        func checked(_ expression: FilterExpression, _ name: String) throws(BackendError) -> FilterExpression {
            if let missing = expression.facetAttributes.sorted().first(where: { !declared.contains($0) }) {
                throw Self.undeclared(missing, parameter: name)
            }
            return expression
        }
        for named in query.filters { filter = filter.combined(with: try checked(named.expression, named.parameter)) }
        optionalFilters = try checked(FilterExpression(clauses: query.optionalFilters), "optionalFilters").clauses
        for group in query.disjunctive {
            let expression = try checked(group.filter, "disjunctiveFilters")
            // An attribute not declared for faceting has no counts to relax (a numeric range on it, or
            // its facet filters, which `checked` refused): its group filters like `filters`.
            guard declared.contains(group.attribute) else {
                filter = filter.combined(with: expression)
                continue
            }
            let selected = expression.clauses.joined().compactMap { atom -> String? in
                guard !atom.isNegated, case .facet(let name, let value) = atom.condition, name == group.attribute else { return nil }
                return value.text
            }
            disjunctive.append(DisjunctiveFacet(attribute: group.attribute, filter: expression, selected: selected))
        }
        for selection in query.hierarchical {
            if let missing = selection.attributes.first(where: { !declared.contains($0) }) {
                throw Self.undeclared(missing, parameter: "hierarchicalFacets")
            }
            hierarchical.append(HierarchicalFacet(attributes: selection.attributes, separator: selection.separator, path: selection.path))
        }
        if let list = query.facets {
            // Like Algolia, attributes not declared for faceting (or only `filterOnly`) are not counted.
            let countable = settings.attributesForFaceting.filter { $0.modifier != .filterOnly }.map(\.attribute)
            facets = list.contains("*") ? countable : list.filter { countable.contains($0) }
            for attribute in list where attribute != "*" && !countable.contains(attribute)
                && !facetsNotCounted.contains(where: { $0.attribute == attribute }) {
                facetsNotCounted.append(FacetNotCounted(attribute: attribute, reason: Self.notCounted(attribute, filterOnly: declared.contains(attribute))))
            }
        }
        if let v = query.maxValuesPerFacet { maxValuesPerFacet = v }
        if let v = query.sortFacetValuesByAlpha { sortFacetValuesByAlpha = v }
        relevancyStrictness = query.relevancyStrictness
        geo = query.geo
    }

    static func notCounted(_ attribute: String, filterOnly: Bool) -> String {
        filterOnly
            ? "'\(attribute)' is declared as filterOnly(\(attribute)), which filters but is not counted; "
                + "declare it as \"\(attribute)\" in the index setting attributesForFaceting to count it"
            : "'\(attribute)' is not declared for faceting; add \"\(attribute)\" to the index setting attributesForFaceting to count it"
    }

    static func undeclared(_ attribute: String, parameter: String) -> BackendError {
        .invalidParameter(name: parameter, expected: "filters on attributes declared for faceting: '\(attribute)' is not; "
            + "add \"\(attribute)\" (or \"filterOnly(\(attribute))\") to the index setting attributesForFaceting")
    }
}
