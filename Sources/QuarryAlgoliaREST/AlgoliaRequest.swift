import QuarryJSON

/// One Algolia REST request as the HTTP edge read it: method, path under `/1/`, query items and body.
public struct AlgoliaRequest: Sendable {
    public enum Method: String, Sendable { case get = "GET", post = "POST", put = "PUT", delete = "DELETE" }

    public var method: Method
    /// The path's segments after `/1/`, percent-decoded (`["indexes", "shop", "query"]`).
    public var segments: [String]
    /// The query string's items, percent-decoded; a repeated name keeps its last value.
    public var query: [String: String]
    /// The parsed body; nil when there was none.
    public var body: JSON?

    public init(method: Method, segments: [String], query: [String: String], body: JSON?) {
        self.method = method
        self.segments = segments
        self.query = query
        self.body = body
    }

    /// Splits a request target (`/1/indexes/shop/query?x=1`) into its segments after `/1/` and its query;
    /// nil when the path is not under `/1/`.
    public static func split(target: String) -> (segments: [String], query: [String: String])? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0]
        guard path.hasPrefix("/1/") else { return nil }
        let segments = path.dropFirst(3).split(separator: "/", omittingEmptySubsequences: false)
            .map { URLEncoding.decode(Substring($0), plusIsSpace: false) }
        let query = parts.count == 2 ? URLEncoding.items(parts[1]) : [:]
        return (segments.last == "" ? Array(segments.dropLast()) : segments, query)
    }
}
