import QuarryJSON

/// `initialized`: the client saw the `initialize` reply. Nothing to do.
public struct InitializedNotification: ClientNotificationType {
    public static let method = "initialized"
    public init(params: Params) throws(ResponseError) {}
}

/// `exit`: on stdio the daemon exits (0 after `shutdown`, else 1); on a socket
/// only this connection closes.
public struct ExitNotification: ClientNotificationType {
    public static let method = "exit"
    public init(params: Params) throws(ResponseError) {}
}

/// `$/cancelRequest` {id}: the request still gets a reply, `-32800` if it had not finished.
public struct CancelRequestNotification: ClientNotificationType {
    public static let method = "$/cancelRequest"
    public var id: RequestID

    public init(params: Params) throws(ResponseError) {
        guard let value = params.object["id"], let id = RequestID(json: value) else {
            throw params.fail("id", expected: "an integer or a string", got: params.object["id"])
        }
        self.id = id
    }
}

/// `$/progress` {token, value}: LSP work-done progress for long requests (`importFile`).
public struct ProgressNotification: ServerNotificationType {
    public static let method = "$/progress"
    public enum Kind: String, Sendable { case begin, report, end }

    public var token: JSON
    public var kind: Kind
    public var title: String?
    public var message: String?
    public var percentage: Int?
    /// Quarry's additions to LSP's progress value (counts a client may show).
    public var details: JSONObject

    public init(token: JSON, kind: Kind, title: String? = nil, message: String? = nil, percentage: Int? = nil,
                details: JSONObject? = nil) {
        self.token = token
        self.kind = kind
        self.title = title
        self.message = message
        self.percentage = percentage
        self.details = details ?? JSONObject()
    }

    public var params: JSON {
        var value: JSONObject = ["kind": .string(kind.rawValue)]
        if let title { value["title"] = .string(title) }
        if let message { value["message"] = .string(message) }
        if let percentage { value["percentage"] = .int(Int64(percentage)) }
        value.merge(details) { current, _ in current }
        return ["token": token, "value": .object(value)]
    }
}
