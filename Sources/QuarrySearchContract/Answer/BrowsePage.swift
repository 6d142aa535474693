import QuarryJSON

/// One page of a browse: records in the order ties rank in, and the cursor to the
/// next page (nil on the last).
public struct BrowsePage: Sendable {
    public var hits: [JSONObject]
    public var cursor: String?
    /// Records matching the browse's query and filters when this page was read.
    public var nbHits: Int

    package init(hits: [JSONObject], cursor: String?, nbHits: Int) {
        self.hits = hits
        self.cursor = cursor
        self.nbHits = nbHits
    }

    public func json() -> JSONObject {
        var object: JSONObject = ["hits": .array(hits.map { .object($0) }), "nbHits": JSON(nbHits)]
        if let cursor { object["cursor"] = .string(cursor) }
        return object
    }
}
