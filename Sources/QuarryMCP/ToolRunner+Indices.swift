import QuarryJSON

/// The tools that read one index or the list of them.
extension ToolRunner {
    func listIndices() throws -> (JSON, String) {
        let items = try daemon("listIndices", [:])["items"]?.arrayValue ?? []
        var indices: [JSON] = []
        for item in items {
            let name = item["name"]?.stringValue ?? ""
            let settings = (try? daemon("getSettings", ["index": .string(name)])) ?? [:]
            let faceting = (settings["attributesForFaceting"]?.arrayValue ?? []).compactMap(\.stringValue)
            indices.append([
                "name": .string(name), "records": item["entries"] ?? 0,
                "searchableAttributes": .array((settings["searchableAttributes"]?.arrayValue ?? [])),
                "facets": .array(faceting.map { .string(Self.facetName($0)) }),
                "replicas": item["replicas"] ?? settings["replicas"] ?? [],
            ])
        }
        let result = Self.bounded([:], hits: indices, key: "indices", bytes: budget.structuredBytes, paging: .none)
        var cleaned = result.objectValue ?? [:]
        // Indices are not hits: the counts are only worth a field when something was left out.
        if cleaned["omittedHits"] == 0 { cleaned["returnedHits"] = nil; cleaned["omittedHits"] = nil }
        let lines = indices.map { index in
            "\(index["name"]?.stringValue ?? ""): " + Self.counted(index["records"]?.intValue ?? 0, "record") + "; facets "
                + ((index["facets"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "))
        }
        return (.object(cleaned), ([Self.counted(indices.count, "index", plural: "indices") + "."] + lines).joined(separator: "\n"))
    }

    /// `searchable(genre)` and `filterOnly(genre)` name the attribute `genre`.
    static func facetName(_ declared: String) -> String {
        for prefix in ["searchable(", "filterOnly(", "afterDistinct("] where declared.hasPrefix(prefix) && declared.hasSuffix(")") {
            return facetName(String(declared.dropFirst(prefix.count).dropLast()))
        }
        return declared
    }

    func indexSettings(_ arguments: ToolArguments) throws -> (JSON, String) {
        let index = arguments.required("index")
        let settings = try daemon("getSettings", ["index": .string(index)], index: index)
        let keys = (settings.objectValue?.keys).map { Array($0) } ?? []
        return (["index": .string(index), "settings": settings],
                "Settings of \(index): \(keys.joined(separator: ", ")). The values are in structuredContent.")
    }

    func facetValues(_ arguments: ToolArguments) throws -> (JSON, String) {
        let index = arguments.required("index")
        let facet = arguments.required("facet")
        var params: JSONObject = ["index": .string(index), "facetName": .string(facet)]
        for name in ["facetQuery", "query", "filters", "maxFacetHits"] {
            if let value = arguments[name] { params[name] = value }
        }
        let response = try daemon("searchForFacetValues", .object(params), index: index)
        let values: [JSON] = (response["facetHits"]?.arrayValue ?? []).map {
            ["value": $0["value"] ?? "", "count": $0["count"] ?? 0]
        }
        let result = Self.bounded(["index": .string(index), "facet": .string(facet)], hits: values, key: "facetHits",
                                  bytes: budget.structuredBytes, paging: .none)
        var cleaned = result.objectValue ?? [:]
        if cleaned["omittedHits"] == 0 { cleaned["returnedHits"] = nil; cleaned["omittedHits"] = nil }
        let lines = values.prefix(20).map { "\($0["value"]?.stringValue ?? ""): \($0["count"]?.intValue ?? 0)" }
        return (.object(cleaned), (["\(values.count) values of \(facet) in \(index):"] + lines).joined(separator: "\n"))
    }

    func getObjects(_ arguments: ToolArguments) throws -> (JSON, String) {
        let index = arguments.required("index")
        var params: JSONObject = ["index": .string(index), "objectIDs": arguments["objectIDs"] ?? []]
        if let attributes = arguments["attributesToRetrieve"] { params["attributesToRetrieve"] = attributes }
        let response = try daemon("getObjects", .object(params), index: index)
        let objects = (response["results"]?.arrayValue ?? []).map(HitCompaction.trimmed)
        let result = Self.bounded(["index": .string(index)], hits: objects, key: "objects",
                                  bytes: budget.structuredBytes, paging: .none)
        let found = objects.filter { !$0.isNull }.count
        var text = "\(found) of \(objects.count) records found in \(index)."
        if let note = result["note"]?.stringValue { text += " " + note }
        return (result, text + " The records are in structuredContent.")
    }

    func browse(_ arguments: ToolArguments) throws -> (JSON, String) {
        let index = arguments.required("index")
        var params: JSONObject = ["index": .string(index), "hitsPerPage": arguments["hitsPerPage"] ?? 20]
        for name in ["cursor", "query", "filters", "attributesToRetrieve"] {
            if let value = arguments[name] { params[name] = value }
        }
        let response = try daemon("browse", .object(params), index: index)
        let hits = (response["hits"]?.arrayValue ?? []).map(HitCompaction.trimmed)
        var base: JSONObject = ["index": .string(index), "nbHits": response["nbHits"] ?? 0]
        if let cursor = response["cursor"] { base["cursor"] = cursor }
        var result = Self.bounded(base, hits: hits, bytes: budget.structuredBytes,
                                  paging: .cursor(arguments.string("cursor"))).objectValue ?? [:]
        // The next cursor would skip the hits left out: the note says how to read them instead.
        if result["omittedHits"] != 0 { result["cursor"] = nil }
        var text = "\(result["returnedHits"]?.intValue ?? 0) records of \(index) (\(response["nbHits"]?.intValue ?? 0) match)."
        text += result["cursor"] == nil ? "" : " Pass cursor to browse for the next page."
        if let note = result["note"]?.stringValue { text += " " + note }
        return (.object(result), text)
    }
}
