import QuarryBackend
import QuarryJSON
import QuarrySession
import QuarrySearchContract

/// The backend (engine or cluster) as sessions see it. Session results are shared by connections
/// that may have negotiated different encodings, so hits carry match ranges
/// in both; `SessionRanges` picks each connection's.
struct IndexSessionBackend: SearchBackend {
    let backend: any IndexBackend

    func search(index: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        let response = try call { () throws(BackendError) in
            try backend.search(index: index, parameters: parameters, positionEncoding: .utf16, alsoOtherRanges: true)
        }
        return response.objectValue ?? [:]
    }

    /// The backend's facet search: prefix and typo matched, counted under
    /// the session's query and filters (the attribute's own or-group relaxed
    /// by the plan).
    func searchForFacetValues(index: String, attribute: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        let response = try call { () throws(BackendError) in
            try backend.searchForFacetValues(index: index, attribute: attribute, parameters: parameters, positionEncoding: .utf16)
        }
        return response.objectValue ?? [:]
    }

    /// The plan's reads as one batch: one multi_search on a cluster.
    func searchAll(_ requests: [SearchPlan.Request]) -> [Result<JSONObject, SessionError>] {
        var reads: [BatchRead] = []
        for request in requests {
            switch request {
            case .hits(let index, let parameters): reads.append(.search(index: index, parameters: parameters))
            case .facetValues(let index, let attribute, let parameters):
                reads.append(.facetValues(index: index, attribute: attribute, parameters: parameters))
            case .emptyHits: break
            }
        }
        var answers = backend.searchBatch(reads, positionEncoding: .utf16, alsoOtherRanges: true).makeIterator()
        return requests.map { request in
            if case .emptyHits = request { return .success([:]) }
            let answer = answers.next() ?? .failure(.storage("the backend gave fewer answers than reads"))
            do throws(SessionError) {
                return .success(try call { () throws(BackendError) in try answer.get() }.objectValue ?? [:])
            } catch {
                return .failure(error)
            }
        }
    }

    func settings(index: String) throws(SessionError) -> JSONObject {
        try call { () throws(BackendError) in try backend.settings(index: index) }
    }

    private func call<T>(_ body: () throws(BackendError) -> T) throws(SessionError) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .indexNotFound(let name): throw .invalidParameter("index", "an existing index: '\(name)' does not exist")
            case .invalidParameter(let name, let expected): throw .invalidParameter(name, expected)
            case .diskFull: throw .unavailable(reason: "diskFull", "\(error)")
            case .storage: throw .unavailable(reason: "storage", "\(error)")
            case .resourceExhausted: throw .unavailable(reason: "resourceExhausted", "\(error)")
            case .unavailable: throw .unavailable(reason: "backendUnavailable", "\(error)")
            default: throw .backend("\(error)")
            }
        }
    }
}
