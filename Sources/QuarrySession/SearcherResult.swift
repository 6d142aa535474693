import QuarryJSON
import QuarrySearchContract

/// One searcher's entry in a `resultsUpdated`: every member already as JSON except the hits, whose
/// match ranges take the encoding of the connection the push is written to (`json(in:)`).
public struct SearcherResult: Sendable, Equatable {
    /// The members in order; `hits` holds its place with null when `hits` is set.
    public var fields: JSONObject
    public var hits: [SearchHit]?

    public init(fields: JSONObject, hits: [SearchHit]? = nil) {
        self.fields = fields
        self.hits = hits
    }

    public func json(in encoding: PositionEncoding) -> JSON {
        guard let hits else { return .object(fields) }
        var object = fields
        object["hits"] = .array(hits.map { .object($0.json(in: encoding)) })
        return .object(object)
    }
}
