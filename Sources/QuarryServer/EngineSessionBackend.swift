import QuarryEngine
import QuarryJSON
import QuarrySession

/// The engine as sessions see it. Session results are shared by connections
/// that may have negotiated different encodings, so hits carry match ranges
/// in both; `SessionRanges` picks each connection's.
struct EngineSessionBackend: SearchBackend {
    let engine: Engine

    func search(index: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        let response = try call { () throws(EngineError) in
            try engine.search(index: index, parameters: parameters, alsoOtherRanges: true)
        }
        return response.objectValue ?? [:]
    }

    /// The engine's own facet search: prefix and typo matched, counted under
    /// the session's query and filters (the attribute's own or-group relaxed
    /// by the plan).
    func searchForFacetValues(index: String, attribute: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        let response = try call { () throws(EngineError) in
            try engine.searchForFacetValues(index: index, attribute: attribute, parameters: parameters)
        }
        return response.objectValue ?? [:]
    }

    func settings(index: String) throws(SessionError) -> JSONObject {
        try call { () throws(EngineError) in try engine.settings(index: index) }
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
