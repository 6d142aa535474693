import QuarryEngine
import QuarryJSON
import QuarrySession

/// The engine as sessions see it. Session results are shared by connections
/// that may have negotiated different encodings, so their match ranges count
/// UTF-16 code units (LSP's default).
struct EngineSessionBackend: SearchBackend {
    let engine: Engine

    func search(index: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        let response = try call { () throws(EngineError) in try engine.search(index: index, parameters: parameters) }
        return response.objectValue ?? [:]
    }

    /// Until the engine answers search-for-facet-values itself, the facet's
    /// counts under the same filters (every disjunctive clause given applies),
    /// kept where a word of the value starts with the facet query.
    func searchForFacetValues(index: String, attribute: String, parameters: JSONObject) throws(SessionError) -> JSONObject {
        var request = parameters
        let facetQuery = request.removeValue(forKey: "facetQuery")?.stringValue ?? ""
        var clauses = [request["filters"]?.stringValue].compactMap { $0 }
        for (_, clause) in request.removeValue(forKey: "disjunctiveFilters")?.objectValue ?? [:] {
            if let text = clause.stringValue { clauses.append(text) }
        }
        if !clauses.isEmpty { request["filters"] = .string(clauses.joined(separator: " AND ")) }
        request["query"] = ""
        request["facets"] = [.string(attribute)]
        request["hitsPerPage"] = 0
        request["maxValuesPerFacet"] = 1000
        let response = try search(index: index, parameters: request)
        let counts = response["facets"]?[attribute]?.objectValue ?? [:]
        let prefix = facetQuery.lowercased()
        let matching = counts.filter { value, _ in
            prefix.isEmpty || value.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0.hasPrefix(prefix) }
        }
        let sorted = matching.sorted { ($0.value.intValue ?? 0, $1.key) > ($1.value.intValue ?? 0, $0.key) }
        let hits = sorted.prefix(10).map { value, count -> JSON in
            ["value": .string(value), "highlighted": .string(value), "count": count]
        }
        return ["facetHits": .array(Array(hits)), "exhaustiveFacetsCount": true,
                "processingTimeMS": response["processingTimeMS"] ?? 0]
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
            default: throw .backend("\(error)")
            }
        }
    }
}
