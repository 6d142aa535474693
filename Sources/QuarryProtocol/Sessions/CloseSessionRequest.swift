import QuarryJSON

/// `closeSession` {session}: detaches this connection. A session nobody is
/// attached to is freed after the grace period (`--session-grace`).
public struct CloseSessionRequest: RequestType, SessionScoped {
    public static let method = "closeSession"
    public var session: String

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
    }

    /// `{session, detached}`: false when this connection was not attached.
    public struct Response: ResponseType {
        public var session: String
        public var detached: Bool

        public init(session: String, detached: Bool) {
            self.session = session
            self.detached = detached
        }

        public var json: JSON { ["session": .string(session), "detached": .bool(detached)] }
    }
}
