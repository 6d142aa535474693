/// One HTTP request to one node, as a transport sends it.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// `http://host:port`, no trailing slash.
    public var baseURL: String
    /// The path and query, already percent-encoded (`URLQuery`).
    public var target: String
    /// Sent as given; credentials travel here, never in `target`, so no URL in an error or a log holds them.
    public var headers: [String: String]
    public var body: [UInt8]?
    /// Seconds until the transport gives up on the whole exchange.
    public var timeout: Double

    public init(method: HTTPMethod, baseURL: String, target: String, headers: [String: String] = [:],
                body: [UInt8]? = nil, timeout: Double) {
        self.method = method
        self.baseURL = baseURL
        self.target = target
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
