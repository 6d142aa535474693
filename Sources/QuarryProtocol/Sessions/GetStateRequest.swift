/// `getState` {session}: `{session, stateVersion, state}`, as `stateChanged` carries it.
public struct GetStateRequest: RequestType, SessionScoped {
    public static let method = "getState"
    public typealias Response = JSONResponse
    public var session: String

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
    }
}
