import QuarryBackend
import QuarryEngine
import QuarryJSON
import QuarrySession

/// The backend (engine or cluster) as sessions see it. Session results are shared by connections
/// that may have negotiated different encodings, so hits carry match ranges
/// in both; `SessionRanges` picks each connection's.
struct IndexSessionBackend: SearchBackend {
    let backend: any IndexBackend

    func search(index: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        let response = try call { () throws(EngineError) in
            try backend.search(index: index, parameters: parameters, positionEncoding: .utf16, alsoOtherRanges: true)
        }
        return response.objectValue ?? [:]
    }

    /// The backend's facet search: prefix and typo matched, counted under
    /// the session's query and filters (the attribute's own or-group relaxed
    /// by the plan).
    func searchForFacetValues(index: String, attribute: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        let response = try call { () throws(EngineError) in
            try backend.searchForFacetValues(index: index, attribute: attribute, parameters: parameters, positionEncoding: .utf16)
        }
        return response.objectValue ?? [:]
    }

    func settings(index: String) throws(SessionError) -> JSONObject {
        try call { () throws(EngineError) in try backend.settings(index: index) }
    }

    private func call<T>(_ body: () throws(EngineError) -> T) throws(SessionError) -> T {
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
