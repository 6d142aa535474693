import QuarryJSON

/// `loadPage` {session, searcher, page, stateVersion}: one page of a hits
/// searcher's result for that version; `-32801` if the session moved on.
public struct LoadPageRequest: RequestType, SessionScoped {
    public static let method = "loadPage"
    public typealias Response = JSONResponse
    public var session: String
    public var searcher: String
    public var page: Int
    public var stateVersion: Int

    public init(params: Params) throws(ResponseError) {
        session = try params.sessionName()
        searcher = try params.string("searcher")
        guard let page = try params.optionalInt("page") else { throw params.fail("page", expected: "an integer ≥ 0", got: nil) }
        guard let version = try params.optionalInt("stateVersion") else {
            throw params.fail("stateVersion", expected: "an integer ≥ 0", got: nil)
        }
        self.page = page
        stateVersion = version
    }
}
