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
}
