import QuarryJSON

/// `openSession` {session?, searchers?}: attaches this connection to the named
/// session, creating it (with `searchers`) if it does not exist. Without a
/// name a new session is created. `searchers` are ignored when attaching.
public struct OpenSessionRequest: RequestType {
    public static let method = "openSession"
    public var session: String?
    public var searchers: [SearcherSpec]

    public init(params: Params) throws(ResponseError) {
        session = params.object["session"] == nil ? nil : try params.sessionName()
        searchers = []
        for (position, element) in (try params.optionalArray("searchers") ?? []).enumerated() {
            searchers.append(try SearcherSpec(element, at: "searchers[\(position)]", in: params))
        }
    }

    /// `{session, stateVersion, state, created, searchers}`: `searchers` are the ids created, in order.
    public struct Response: ResponseType {
        public var snapshot: JSONObject
        public var created: Bool
        public var searchers: [String]

        public init(snapshot: JSONObject, created: Bool, searchers: [String]) {
            self.snapshot = snapshot
            self.created = created
            self.searchers = searchers
        }

        public var json: JSON {
            var object = snapshot
            object["created"] = .bool(created)
            object["searchers"] = .array(searchers.map(JSON.string))
            return .object(object)
        }
    }
}
