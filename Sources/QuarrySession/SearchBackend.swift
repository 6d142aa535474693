import QuarryJSON
import QuarrySearchContract

/// How sessions reach the engine, without depending on it: the server adapts
/// its `Engine`, tests use fakes. Every method may be called from any thread.
/// Errors are `SessionError`s (`.invalidParameter` for a missing index or a
/// bad parameter, `.backend` otherwise).
public protocol SearchBackend: Sendable {
    func search(index: String, query: SearchQuery) throws(SessionError) -> SearchResponse
    func searchForFacetValues(index: String, query: FacetValueQuery) throws(SessionError) -> FacetValuesResponse
    /// The index's settings (a replica's name its `primary`; a primary's, its `replicas`).
    func settings(index: String) throws(SessionError) -> IndexSettings
    /// Every request of one plan (`.emptyHits` answers nil), each with its own outcome, in
    /// order: a cluster sends them as one request per keystroke.
    func searchAll(_ requests: [SearchPlan.Request]) -> [Result<SearchAnswer?, SessionError>]
}

extension SearchBackend {
    /// One request at a time.
    public func searchAll(_ requests: [SearchPlan.Request]) -> [Result<SearchAnswer?, SessionError>] {
        requests.map { request in
            do throws(SessionError) {
                switch request {
                case .hits(let index, let query): return .success(.search(try search(index: index, query: query)))
                case .facetValues(let index, let query): return .success(.facetValues(try searchForFacetValues(index: index, query: query)))
                case .emptyHits: return .success(nil)
                }
            } catch {
                return .failure(error)
            }
        }
    }
}
