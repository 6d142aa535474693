import QuarryJSON

/// One API call before it is routed to a node: what to send and how the
/// cluster may route and retry it.
public struct TypesenseRequest: Sendable {
    /// How a request is routed, and whether it may be sent twice.
    public enum Kind: Sendable, Equatable {
        /// Changes nothing: any node may answer, and a failed node is replaced by the next at once.
        case read
        /// A write whose second application changes nothing more (upsert, update and emplace imports,
        /// document and alias PUT/PATCH/DELETE, delete by filter, collection DELETE): retried on
        /// the leader until the write bound, whatever the failure.
        case idempotentWrite
        /// A write that must not be applied twice (collection POST, `create` imports, schema PATCH):
        /// retried only when the node certainly never got it (no connection, 503).
        case write
    }

    public var method: HTTPMethod
    /// Path with encoded segments (`TypesenseRequest.path`), no query.
    public var path: String
    public var query: JSONObject
    public var body: [UInt8]?
    public var contentType: String
    public var kind: Kind
    /// Overrides the cluster's timeout for its kind (long imports).
    public var timeout: Double?

    public init(_ method: HTTPMethod, _ path: String, query: JSONObject? = nil, body: [UInt8]? = nil,
                contentType: String = "application/json", kind: Kind, timeout: Double? = nil) {
        self.method = method
        self.path = path
        self.query = query ?? JSONObject()
        self.body = body
        self.contentType = contentType
        self.kind = kind
        self.timeout = timeout
    }

    /// A path from its segments, each percent-encoded (document ids may hold any character).
    public static func path(_ segments: String...) -> String {
        segments.map { "/" + URLQuery.escape($0) }.joined()
    }

    /// Path and query as sent.
    var target: String {
        query.isEmpty ? path : path + "?" + URLQuery.encode(query)
    }
}
