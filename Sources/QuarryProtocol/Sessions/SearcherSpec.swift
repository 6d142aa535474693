import QuarryJSON

/// A hits searcher as `addHitsSearcher` and `openSession` describe it.
public struct HitsSearcherSpec: Sendable, Hashable {
    public var index: String
    public var hitsPerPage: Int?
    public var attributesToRetrieve: [String]?
    public var attributesToHighlight: [String]?
    public var attributesToSnippet: [String]?
    public var showItemsOnEmptyQuery: Bool?
    public var facets: [String]?
    /// `isRefined`, `count`, `alpha`, in priority order.
    public var facetOrder: [String]?

    public static let facetOrders = ["isRefined", "count", "alpha"]

    /// `attribute`, or `attribute:N` with N words of context.
    static func isSnippetEntry(_ entry: String) -> Bool {
        guard let colon = entry.lastIndex(of: ":") else { return true }
        return Int(entry[entry.index(after: colon)...]).map { $0 >= 0 } ?? false
    }

    public init(index: String) { self.index = index }

    public init(_ p: Params) throws(ResponseError) {
        index = try p.indexName()
        hitsPerPage = try p.optionalInt("hitsPerPage", in: 0...1000)
        attributesToRetrieve = try p.optionalStrings("attributesToRetrieve")
        attributesToHighlight = try p.optionalStrings("attributesToHighlight")
        attributesToSnippet = try p.optionalStrings("attributesToSnippet")
        showItemsOnEmptyQuery = try p.optionalBool("showItemsOnEmptyQuery")
        facets = try p.optionalStrings("facets")
        facetOrder = try p.optionalStrings("facetOrder")
        // Checked here, as a search checks it, so that a searcher never asks what every search would refuse.
        for (position, entry) in (attributesToSnippet ?? []).enumerated() where !Self.isSnippetEntry(entry) {
            throw p.fail("attributesToSnippet[\(position)]", expected: "\"attribute\" or \"attribute:N\"", got: .string(entry))
        }
        for (position, order) in (facetOrder ?? []).enumerated() where !Self.facetOrders.contains(order) {
            throw p.fail("facetOrder[\(position)]", expected: "one of \"isRefined\", \"count\", \"alpha\"", got: .string(order))
        }
    }
}

/// A facets searcher: values of `attribute` in `index` matching the query.
public struct FacetsSearcherSpec: Sendable, Hashable {
    public var index: String
    public var attribute: String

    public init(_ p: Params) throws(ResponseError) {
        index = try p.indexName()
        attribute = try p.string("attribute")
    }
}

/// An entry of `openSession`'s `searchers`: `{type: "hits"|"facets", …}`.
public enum SearcherSpec: Sendable, Hashable {
    case hits(HitsSearcherSpec)
    case facets(FacetsSearcherSpec)

    public init(_ value: JSON, at path: String, in params: Params) throws(ResponseError) {
        self = try params.nested(value, at: path) { (p) throws(ResponseError) -> SearcherSpec in
            switch try p.oneOf("type", ["hits": true, "facets": false]) {
            case true?: return .hits(try HitsSearcherSpec(p))
            case false?: return .facets(try FacetsSearcherSpec(p))
            case nil: throw p.fail("type", expected: "\"hits\" or \"facets\"", got: nil)
            }
        }
    }
}
