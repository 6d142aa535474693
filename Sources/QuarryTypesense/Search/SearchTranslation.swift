import QuarryFilters
import QuarryJSON
import QuarrySearchContract

/// One Quarry search as the searches of one Typesense `POST /multi_search`.
///
/// - The hits: one search per Typesense page the requested page spans (`PageWindow`), with the
///   text parameters (`TextQuery`), `filter_by` (the base filter, every disjunctive group and the
///   deepest hierarchical selection, plus geo), `sort_by` (`HitOrdering`), `group_by` for distinct,
///   and `facet_by` the attributes counted under the hits' own filter.
/// - Counts: one `per_page: 0` search per other set of conditions (`ConditionPlan`: an attribute
///   with an or-group relaxes it, a hierarchical level relaxes the deeper selections), faceting
///   every attribute counted under that set. Facets ask for the top values (`FacetCut`); the
///   engine's order (count, then text) and cut are applied by `ResponseAssembly`, after
///   `FacetRefetch` fetched every value where a tie spans Typesense's cut. A search asks for every
///   value when one of its attributes needs them all: text order, numbers for `facets_stats`, the
///   distinct attribute's counts for `nbHits`.
/// - With distinct, facets move to a search without `group_by` (there Typesense counts groups),
///   which also counts the distinct attribute's values so `nbHits` follows the engine's rule.
///
/// A search that cannot match (its filter is `.none`, a query with words but no searchable field,
/// a geo filter but no `_geoloc`) is not sent: its answer is known to be empty.
public struct SearchTranslation: Sendable {
    public enum Purpose: Sendable, Equatable {
        /// One Typesense page of hits (1-based).
        case hits(page: Int)
        /// Facet counts of these attributes (and, with distinct, the distinct attribute's).
        case counts(attributes: [String])
    }

    public struct Search: Sendable {
        public let purpose: Purpose
        /// nil when the search is known to find nothing and is not sent.
        public let parameters: JSONObject?
    }

    /// A record's distinct group when the documents carry it (string, facet): the first value of
    /// `attributeForDistinct`, or a key of its own for a record without one, which is the engine's
    /// grouping exactly. Without it, `f_<attribute>` groups by the whole value set, and records
    /// without a value fall into one group.
    public static let distinctKeyField = "_q_distinct"

    public let index: String
    public let parameters: SearchParameters
    /// `exact` sends the parameters that make `nbHits` and every facet count exact (protocol/backends.md,
    /// "Exact counts"), and fetches every value of a facet whose cut a tie spans. `fast` keeps Typesense's
    /// own bounds on prefix and typo expansion and skips that second request: one round trip, answered
    /// up to ten times sooner on one-letter prefixes, whose counts may be estimates (the response says so).
    public let counts: SearchCounts
    /// Whether the query has a word: without one, `SearchCounts.fast` changes nothing, so counts are exact.
    let hasWords: Bool
    public let searches: [Search]
    /// `sort_by` keys past Typesense's three, not applied.
    public let droppedSortKeys: [String]
    let window: PageWindow
    let plan: ConditionPlan
    /// Counted attribute → the search holding its counts and its field; absent when no record has the field.
    let facetSources: [String: (search: Int, field: String)]
    /// Distinct: the attribute's field, hits kept per value, and the search counting its values.
    let distinct: (field: String, limit: Int, search: Int)?
    /// Relevant sort on a virtual replica.
    let strictness: Int?
    let ordering: HitOrdering
    /// Counted attributes some record holds a JSON number at (an `n_` field): the only ones the
    /// engine gives `facets_stats`, which read every value, so these ask for every value.
    let numericAttributes: Set<String>

    /// `settings`: of the index or replica searched; `collection`: what to search (an index's alias,
    /// a replica's primary's); `fields`: the collection's concrete field names (GET /collections).
    public init(
        index: String, parameters: SearchParameters, settings: IndexSettings, collection: String, fields: Set<String>,
        filter render: FilterRendering, highlighting: (any HitHighlighting)?, counts: SearchCounts = .exact
    ) throws(BackendError) {
        self.index = index
        self.parameters = parameters
        self.counts = counts
        let refinements = parameters.refinements
        let plan = try ConditionPlan(refinements)
        let text = TextQuery(parameters, settings: settings, fields: fields, counts: counts)
        hasWords = text.hasWords
        let distinctAttribute = settings.attributeForDistinct.flatMap { $0.isEmpty ? nil : $0 }
        let distinctField = distinctAttribute.flatMap { attribute in
            fields.contains(Self.distinctKeyField) ? Self.distinctKeyField : fields.contains(FieldNames.facet(attribute)) ? FieldNames.facet(attribute) : nil
        }
        let distinctLimit = distinctField == nil ? 0 : parameters.distinct
        // Hits are grouped only with a field to group on and a limit (distinct 0 turns it off).
        let grouping = distinctLimit > 0 ? distinctField : nil
        let strictness = settings.isVirtualReplica ? (refinements.relevancyStrictness ?? settings.relevancyStrictness) : nil
        var optionalFilter: String?
        let optionalAtoms = refinements.optionalFilters.flatMap { $0 }
        if !optionalAtoms.isEmpty, case .filterBy(let rendered) = try render(FilterExpression(clauses: [optionalAtoms])) {
            optionalFilter = rendered
        }
        let ordering = HitOrdering(settings: settings, search: parameters, hasWords: text.hasWords, fields: fields, strictness: strictness,
                                   optionalFilter: optionalFilter)
        let window = PageWindow(page: parameters.page, hitsPerPage: parameters.hitsPerPage,
                            paginationLimitedTo: parameters.paginationLimitedTo, grouped: grouping != nil)
        let geo = GeoFiltering.filter(refinements.geo)
        let nothing = text.holdsNoWord || (text.hasWords && text.queryBy.isEmpty) || (geo != nil && !fields.contains(FieldNames.geo))

        /// The search's parameters without paging and facets; nil when it cannot match.
        func base(_ mask: UInt64) throws(BackendError) -> JSONObject? {
            guard !nothing else { return nil }
            let filter: String?
            switch try render(plan.filter(base: refinements.filter, mask: mask)) {
            case .none: return nil
            case .all: filter = geo
            case .filterBy(let rendered): filter = geo.map { "(\(rendered)) && \($0)" } ?? rendered
            }
            var p: JSONObject = ["collection": .string(collection)]
            for (key, value) in text.parameters { p[key] = value }
            if let filter { p["filter_by"] = .string(filter) }
            return p
        }
        let limit = refinements.maxValuesPerFacet, alpha = refinements.sortFacetValuesByAlpha
        let numericAttributes = Set(plan.counted.map(\.attribute).filter { fields.contains(FieldNames.numeric($0)) })
        let numericFields = Set(numericAttributes.map(FieldNames.facet))
        func faceting(_ fieldNames: [String], into p: inout JSONObject) {
            guard !fieldNames.isEmpty else { return }
            // The distinct attribute: nbHits sums every value's hits.
            let needsAll = alpha || fieldNames.contains { $0 == grouping || numericFields.contains($0) }
            p["facet_by"] = .string(fieldNames.joined(separator: ","))
            // A fast answer with words is an estimate (`settle`): its completion lists the facets exactly.
            p["max_facet_values"] = JSON(FacetCut.asked(limit: limit, needsAll: needsAll, estimate: counts == .fast && text.hasWords))
        }

        var searches: [Search] = []
        var sources: [String: (search: Int, field: String)] = [:]
        // Attributes by the conditions they are counted under, in first-counted order, with their
        // fields (an attribute no record holds has no field and counts nothing).
        var groups: [(mask: UInt64, attributes: [String], fields: [String])] = []
        for counted in plan.counted {
            let field = FieldNames.facet(counted.attribute)
            let present = fields.contains(field) ? [field] : []
            if let g = groups.firstIndex(where: { $0.mask == counted.required }) {
                groups[g].attributes.append(counted.attribute)
                groups[g].fields += present
            } else {
                groups.append((counted.required, [counted.attribute], present))
            }
            if !present.isEmpty { sources[counted.attribute] = (-1, field) }  // search index set below
        }
        let hitBase = try base(plan.hitConditions)
        let hitGroup = groups.firstIndex { $0.mask == plan.hitConditions }
        let extras = highlighting?.typesenseParameters(for: parameters, queryBy: text.queryBy) ?? [:]
        for (i, page) in (window.pages.isEmpty ? [1] : window.pages).enumerated() {
            var p = hitBase
            p?["page"] = JSON(page)
            p?["per_page"] = JSON(window.pages.isEmpty ? 0 : window.perPage)
            // Grouped pages are re-ranked hit by hit here, on the sort keys' values.
            let included = [FieldNames.record] + (distinctLimit > 1 ? ordering.sortFields : [])
            p?["include_fields"] = .string(included.joined(separator: ","))
            if let sortBy = ordering.sortBy { p?["sort_by"] = .string(sortBy) }
            if let grouping {
                p?["group_by"] = .string(grouping)
                p?["group_limit"] = JSON(distinctLimit)
            }
            if i == 0, grouping == nil, let hitGroup {
                if p != nil { faceting(groups[hitGroup].fields, into: &p!) }
                for attribute in groups[hitGroup].attributes where sources[attribute] != nil { sources[attribute]?.search = searches.count }
            }
            for (key, value) in extras { p?[key] = value }
            searches.append(Search(purpose: .hits(page: page), parameters: p))
        }
        var distinctSearch: Int?
        for (g, group) in groups.enumerated() where g != hitGroup || grouping != nil {
            guard !group.fields.isEmpty || (g == hitGroup && grouping != nil) else { continue }
            var p = g == hitGroup ? hitBase : try base(group.mask)
            p?["per_page"] = 0
            var counted = group.fields
            if g == hitGroup, let grouping {
                if !counted.contains(grouping) { counted.append(grouping) }
                distinctSearch = searches.count
            }
            if p != nil { faceting(counted, into: &p!) }
            for attribute in group.attributes where sources[attribute] != nil { sources[attribute]?.search = searches.count }
            searches.append(Search(purpose: .counts(attributes: group.attributes), parameters: p))
        }
        if let grouping, distinctSearch == nil {
            var p = hitBase
            p?["per_page"] = 0
            if p != nil { faceting([grouping], into: &p!) }
            distinctSearch = searches.count
            searches.append(Search(purpose: .counts(attributes: []), parameters: p))
        }
        self.plan = plan
        self.strictness = strictness
        self.ordering = ordering
        self.numericAttributes = numericAttributes
        self.window = window
        droppedSortKeys = ordering.dropped
        distinct = grouping.flatMap { field in distinctSearch.map { (field, distinctLimit, $0) } }
        facetSources = sources.filter { $0.value.search >= 0 }
        self.searches = searches
    }

    /// The searches to send, in order (those known to find nothing left out).
    public var requests: [JSONObject] { searches.compactMap(\.parameters) }

    /// The body of `POST /multi_search`.
    public var multiSearchBody: JSON { ["searches": .array(requests.map { .object($0) })] }
}
