import QuarryJSON

/// One JSON-RPC request the REST request becomes, for the server's own handlers.
public struct RPCCall: Sendable, Equatable {
    public var method: String
    public var params: JSON

    public init(_ method: String, _ params: JSONObject) {
        self.method = method
        self.params = .object(params)
    }
}

/// A JSON-RPC error reply's parts, as the edge read them.
public struct RPCFailure: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSON?

    public init(code: Int, message: String, data: JSON?) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The Algolia status and body for this error (protocol/algolia-rest.md, "Errors").
    public var response: AlgoliaResponse {
        switch code {
        case -32602 where data?["parameter"]?.stringValue == "index" && message.contains("does not exist"):
            .error(404, "Index does not exist")
        case -32602, -32600, -32700: .error(400, message)
        case -32014: .error(403, "Method not allowed with this API key")
        case -32012: .error(429, message)
        case -32013: .error(503, message)
        default: .error(500, message)
        }
    }
}

public typealias RPCOutcome = Result<JSON, RPCFailure>
