import QuarryJSON

/// How sessions reach the engine, without depending on it: the server adapts
/// its `Engine`, tests use fakes. Every method may be called from any thread.
/// Errors are `SessionError`s (`.invalidParameter` for a missing index or a
/// bad parameter, `.backend` otherwise).
public protocol SearchBackend: Sendable {
    /// An Algolia-shaped search response (see `SearchPlan` for the parameters).
    func search(index: String, parameters: JSONObject) throws(SessionError) -> JSONObject
    /// `{facetHits: [{value, highlighted, count}], …}`.
    func searchForFacetValues(index: String, attribute: String, parameters: JSONObject) throws(SessionError) -> JSONObject
    /// The index's settings with Algolia's names (`primary`, `replicas`, `relevancyStrictness`).
    func settings(index: String) throws(SessionError) -> JSONObject
    /// Every request of one plan (`.emptyHits` answers nothing), each with its own outcome, in
    /// order: a cluster sends them as one request per keystroke.
    func searchAll(_ requests: [SearchPlan.Request]) -> [Result<JSONObject, SessionError>]
}

extension SearchBackend {
    /// One request at a time.
    public func searchAll(_ requests: [SearchPlan.Request]) -> [Result<JSONObject, SessionError>] {
        requests.map { request in
            do throws(SessionError) {
                switch request {
                case .hits(let index, let parameters): return .success(try search(index: index, parameters: parameters))
                case .facetValues(let index, let attribute, let parameters):
                    return .success(try searchForFacetValues(index: index, attribute: attribute, parameters: parameters))
                case .emptyHits: return .success([:])
                }
            } catch {
                return .failure(error)
            }
        }
    }
}
