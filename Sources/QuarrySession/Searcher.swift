/// One consumer of a session's query and filters (protocol/sessions.md, InstantSearch's
/// MultiSearcher entries). Its id is unique within its session, never reused.
public struct Searcher: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case hits(HitsSearcher)
        case facets(FacetsSearcher)
    }

    public let id: String
    public var kind: Kind

    public var index: String {
        switch kind {
        case .hits(let hits): hits.index
        case .facets(let facets): facets.index
        }
    }
}

/// Pages of hits from one index, with facet refinement lists.
public struct HitsSearcher: Sendable, Hashable {
    public var index: String
    public var hitsPerPage: Int?
    public var attributesToRetrieve: [String]?
    public var attributesToHighlight: [String]?
    public var attributesToSnippet: [String]?
    /// When false and the query is empty, the searcher reports no hits (A4).
    public var showItemsOnEmptyQuery: Bool
    /// The attributes whose refinement lists the result carries.
    public var facets: [String]
    /// How refinement lists are ordered (A6).
    public var facetOrder: [FacetOrder]
    /// Set by the relevant-sort toggle: 0 shows all hits; nil is the index's default.
    public var relevancyStrictness: Int?

    public init(index: String, hitsPerPage: Int? = nil, attributesToRetrieve: [String]? = nil,
                attributesToHighlight: [String]? = nil, attributesToSnippet: [String]? = nil,
                showItemsOnEmptyQuery: Bool = true, facets: [String] = [], facetOrder: [FacetOrder] = FacetOrder.defaultOrder) {
        self.index = index
        self.hitsPerPage = hitsPerPage
        self.attributesToRetrieve = attributesToRetrieve
        self.attributesToHighlight = attributesToHighlight
        self.attributesToSnippet = attributesToSnippet
        self.showItemsOnEmptyQuery = showItemsOnEmptyQuery
        self.facets = facets
        self.facetOrder = facetOrder
    }
}

/// Values of one facet attribute matching the session's query as a facet query.
public struct FacetsSearcher: Sendable, Hashable {
    public var index: String
    public var attribute: String

    public init(index: String, attribute: String) {
        self.index = index
        self.attribute = attribute
    }
}

/// One criterion of a refinement list's order; the list applies them in turn.
public enum FacetOrder: String, Sendable, Hashable, CaseIterable {
    /// Refined values first.
    case isRefined
    /// Higher counts first.
    case count
    /// Values by name, in code-point order.
    case alpha

    /// A6's default: refined first, then count descending, then name ascending.
    public static let defaultOrder: [FacetOrder] = [.isRefined, .count, .alpha]
}
