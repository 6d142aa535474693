import QuarryBackend
import QuarryJSON
import QuarrySearchContract
import QuarrySession

/// The backend (engine or cluster) as sessions see it. Answers stay typed: each connection's
/// push renders the hits' match ranges in its own encoding (`SinkSessionOutlet`).
struct IndexSessionBackend: SearchBackend {
    let backend: any IndexBackend

    func search(index: String, query: SearchQuery) throws(SessionError) -> SearchResponse {
        try call { () throws(BackendError) in try backend.search(index: index, query: query) }
    }

    /// The backend's facet search: prefix and typo matched, counted under
    /// the session's query and filters (the attribute's own or-group relaxed
    /// by the plan).
    func searchForFacetValues(index: String, query: FacetValueQuery) throws(SessionError) -> FacetValuesResponse {
        try call { () throws(BackendError) in try backend.searchForFacetValues(index: index, query: query) }
    }

    /// The plan's reads as one batch: one multi_search on a cluster.
    func searchAll(_ requests: [SearchPlan.Request]) -> [Result<SearchAnswer?, SessionError>] {
        var reads: [BatchRead] = []
        for request in requests {
            switch request {
            case .hits(let index, let query): reads.append(.search(index: index, query: query))
            case .facetValues(let index, let query): reads.append(.facetValues(index: index, query: query))
            case .emptyHits: break
            }
        }
        var answers = backend.searchBatch(reads).makeIterator()
        return requests.map { request in
            if case .emptyHits = request { return .success(nil) }
            let answer = answers.next() ?? .failure(.storage("the backend gave fewer answers than reads"))
            return answer.map { $0 }.mapError { SessionError.backend($0) }
        }
    }

    func settings(index: String) throws(SessionError) -> IndexSettings {
        try call { () throws(BackendError) in try backend.settings(index: index) }
    }

    private func call<T>(_ body: () throws(BackendError) -> T) throws(SessionError) -> T {
        do {
            return try body()
        } catch {
            throw .backend(error)
        }
    }
}
