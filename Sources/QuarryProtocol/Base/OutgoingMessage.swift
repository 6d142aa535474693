import QuarryJSON

/// What the server writes: replies and notifications, already encoded as bytes.
public enum OutgoingMessage {
    public static func result(_ result: JSON, id: RequestID) -> JSON {
        ["jsonrpc": "2.0", "id": id.json, "result": result]
    }

    public static func error(_ error: ResponseError, id: RequestID?) -> JSON {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    }

    public static func notification(_ method: String, params: JSON) -> JSON {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }
}
