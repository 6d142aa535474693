import QuarryJSON
import QuarrySearchContract

// The workloads write their searches in Algolia's JSON, as a client sends them; each is read
// once into the typed query, as the daemon's handlers do.
extension SearchParameters {
    init(json: JSONObject, settings: IndexSettings) throws(BackendError) {
        try self.init(query: try SearchQuery(json: json), settings: settings)
    }
}
