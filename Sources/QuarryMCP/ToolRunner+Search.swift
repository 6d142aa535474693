import QuarryJSON

/// `search` and `multi_search`.
extension ToolRunner {
    static let defaultHitsPerPage = 10
    static let facetValuesShown = 10

    func search(_ arguments: ToolArguments) throws -> (JSON, String) {
        let result = try searchResult(arguments.values, bytes: budget.structuredBytes)
        return (result, Self.summary(of: result))
    }

    func multiSearch(_ arguments: ToolArguments) throws -> (JSON, String) {
        let queries = arguments["queries"]?.arrayValue ?? []
        var results: [JSON] = []
        var lines: [String] = []
        for query in queries {
            let fields = query.objectValue ?? [:]
            do {
                let result = try searchResult(fields, bytes: budget.split(queries.count))
                results.append(result)
                lines.append(Self.summary(of: result, hitLines: 3))
            } catch let failure as ToolFailure {
                let index = fields["index"]?.stringValue ?? ""
                results.append(["index": .string(index), "error": .string(failure.message)])
                lines.append("\(index): \(failure.message)")
            }
        }
        return (["results": .array(results)], lines.joined(separator: "\n"))
    }

    /// One search, its hits compacted and cut to `bytes`.
    func searchResult(_ fields: JSONObject, bytes: Int) throws -> JSON {
        let index = fields["index"]?.stringValue ?? ""
        var params: JSONObject = ["index": .string(index), "query": fields["query"] ?? "",
                                  "hitsPerPage": fields["hitsPerPage"] ?? JSON(Self.defaultHitsPerPage),
                                  "maxValuesPerFacet": JSON(Self.facetValuesShown)]
        for name in ["filters", "facets", "page", "attributesToRetrieve"] {
            if let value = fields[name], !value.isNull { params[name] = value }
        }
        let response = try daemon("search", .object(params), index: index)
        var result: JSONObject = [
            "index": .string(index), "query": response["query"] ?? params["query"] ?? "",
            "nbHits": response["nbHits"] ?? 0, "page": response["page"] ?? 0, "nbPages": response["nbPages"] ?? 0,
            "hitsPerPage": response["hitsPerPage"] ?? 0,
        ]
        if let filters = fields["filters"], !filters.isNull { result["filters"] = filters }
        if let facets = ReplyBudget.capFacets(response["facets"], values: Self.facetValuesShown) { result["facets"] = facets }
        let hits = (response["hits"]?.arrayValue ?? []).map(HitCompaction.compact)
        return Self.bounded(result, hits: hits, bytes: bytes, paging: .page(
            page: response["page"]?.intValue ?? 0, hitsPerPage: response["hitsPerPage"]?.intValue ?? hits.count))
    }

    enum Paging {
        case page(page: Int, hitsPerPage: Int)
        case cursor(String?)
        case none
    }

    /// `result` with as many of `hits` as fit in `bytes`, the counts, and a
    /// note on how to get the hits left out.
    static func bounded(_ result: JSONObject, hits: [JSON], key: String = "hits", bytes: Int, paging: Paging) -> JSON {
        var result = result
        result[key] = .array([])
        let (kept, omitted) = ReplyBudget.fit(hits, beside: .object(result), within: bytes)
        result[key] = .array(kept)
        let returnedKey = key == "objects" ? "returnedObjects" : "returnedHits"
        let omittedKey = key == "objects" ? "omittedObjects" : "omittedHits"
        result[returnedKey] = JSON(kept.count)
        result[omittedKey] = JSON(omitted)
        if omitted > 0 { result["note"] = .string(note(kept: kept.count, omitted: omitted, bytes: bytes, paging: paging)) }
        return .object(result)
    }

    static func note(kept: Int, omitted: Int, bytes: Int, paging: Paging) -> String {
        let head = "\(omitted) of the \(kept + omitted) hits were left out to keep this reply under \(bytes) bytes."
        switch paging {
        case .page(let page, let hitsPerPage) where kept > 0 && (page * hitsPerPage) % kept == 0:
            return head + " Ask for hitsPerPage \(kept) and page \(page * hitsPerPage / kept + 1) to go on from here, "
                + "or fewer attributesToRetrieve."
        case .page:
            return head + " Ask for a smaller hitsPerPage or fewer attributesToRetrieve, and page through."
        case .cursor(let cursor):
            let from = cursor.map { "the same cursor (\($0))" } ?? "no cursor"
            return head + " Call browse again with \(from) and hitsPerPage \(max(kept, 1)), or fewer attributesToRetrieve."
        case .none:
            return head + " Ask for fewer at a time, or fewer attributesToRetrieve."
        }
    }

    /// A few lines for models that read text rather than `structuredContent`.
    static func summary(of result: JSON, hitLines: Int = 10) -> String {
        let index = result["index"]?.stringValue ?? ""
        let query = result["query"]?.stringValue ?? ""
        var lines = [Self.counted(result["nbHits"]?.intValue ?? 0, "hit") + " for \"\(query)\" in \(index)"
            + (result["filters"]?.stringValue.map { " with filters \($0)" } ?? "")
            + ", page \(result["page"]?.intValue ?? 0) of \(result["nbPages"]?.intValue ?? 0)."]
        lines += hitSummaries(result["hits"]?.arrayValue ?? [], limit: hitLines)
        if let note = result["note"]?.stringValue { lines.append(note) }
        lines.append("The hits, facet counts and paging are in structuredContent.")
        return lines.joined(separator: "\n")
    }

    /// One short line per hit: its id and the beginning of its first text attribute.
    static func hitSummaries(_ hits: [JSON], limit: Int) -> [String] {
        hits.prefix(limit).enumerated().map { offset, hit in
            let id = hit["objectID"]?.stringValue ?? "?"
            let text = hit.objectValue?.first { $0.key != "objectID" && $0.value.stringValue != nil }?.value.stringValue ?? ""
            return "\(offset + 1). [\(id)] " + (text.count > 90 ? String(text.prefix(90)) + "…" : text)
        }
    }

    /// "1 hit", "3 hits".
    static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
