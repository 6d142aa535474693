import QuarryJSON

extension SearchParameters {
    /// Algolia's JSON read once into the typed query, then resolved against the index's settings:
    /// for whoever holds both at once (a test, the engine benchmark); the daemon's handlers keep the
    /// query and let the backend resolve it.
    public init(json: JSONObject, settings: IndexSettings) throws(BackendError) {
        try self.init(query: try SearchQuery(json: json), settings: settings)
    }
}
