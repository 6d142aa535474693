import QuarryFilters
import QuarryJSON

/// A search's parameters read from, and written back as, Algolia's parameter names plus Quarry's
/// `disjunctiveFilters`, `hierarchicalFacets` and `counts` (protocol/methods/search.md).
///
/// Unknown keys are ignored (the server may warn); a known key with the wrong type or value throws
/// `BackendError.invalidParameter` naming it and what it expects. Numbers and booleans are also
/// accepted as strings, as Algolia's `params` query strings carry them.
extension SearchQuery {
    public init(json: JSONObject) throws(BackendError) {
        self.init()
        let p = ParameterReader(json)
        try readRefinements(json)
        if let v = try p.string("query") { query = v }
        if let v = try p.int("page", min: 0, expected: "a non-negative integer") { page = v }
        if let v = try p.int("hitsPerPage", min: 0, max: 1000, expected: "an integer between 0 and 1000") { hitsPerPage = v }
        attributesToRetrieve = try p.stringList("attributesToRetrieve")
        attributesToHighlight = try p.stringList("attributesToHighlight")
        if let v = try p.stringList("attributesToSnippet") {
            attributesToSnippet = try v.map { (entry) throws(BackendError) in try Self.snippetAttribute(entry) }
        }
        highlightPreTag = try p.string("highlightPreTag")
        highlightPostTag = try p.string("highlightPostTag")
        snippetEllipsisText = try p.string("snippetEllipsisText")
        if let v = try p.string("queryType") {
            guard let type = QueryType(rawValue: v) else {
                throw .invalidParameter(name: "queryType", expected: "one of prefixLast, prefixAll, prefixNone")
            }
            queryType = type
        }
        if let v = json["typoTolerance"] { typoTolerance = try Self.typoTolerance(v) }
        minWordSizefor1Typo = try p.int("minWordSizefor1Typo", min: 0, expected: "a non-negative integer")
        minWordSizefor2Typos = try p.int("minWordSizefor2Typos", min: 0, expected: "a non-negative integer")
        allowTyposOnNumericTokens = try p.bool("allowTyposOnNumericTokens")
        disableTypoToleranceOnWords = try p.stringList("disableTypoToleranceOnWords")
        if let v = try p.bool("getRankingInfo") { getRankingInfo = v }
        if let v = try p.stringList("restrictSearchableAttributes") { restrictSearchableAttributes = v.isEmpty ? nil : v }
        paginationLimitedTo = try p.int("paginationLimitedTo", min: 0, max: 20_000, expected: "an integer between 0 and 20000")
        if let v = json["distinct"] {
            switch v {
            case .bool(let b): distinct = b ? 1 : 0
            default: distinct = try p.int("distinct", min: 0, max: 4, expected: "a boolean or an integer between 0 and 4")
            }
        }
        if let v = try p.string("counts") {
            guard let mode = SearchCounts(rawValue: v) else { throw .invalidParameter(name: "counts", expected: "\"exact\" or \"fast\"") }
            counts = mode
        }
    }

    /// The parameters that read back as this query (`SearchQuery(json: q.json) == q`): what a browse
    /// cursor carries to its next page.
    public var json: JSONObject {
        var json: JSONObject = [:]
        func strings(_ values: [String]) -> JSON { .array(values.map(JSON.string)) }
        if !query.isEmpty { json["query"] = .string(query) }
        if let page { json["page"] = JSON(page) }
        if let hitsPerPage { json["hitsPerPage"] = JSON(hitsPerPage) }
        if let attributesToRetrieve { json["attributesToRetrieve"] = strings(attributesToRetrieve) }
        if let attributesToHighlight { json["attributesToHighlight"] = strings(attributesToHighlight) }
        if let attributesToSnippet { json["attributesToSnippet"] = strings(attributesToSnippet.map { "\($0.attribute):\($0.words)" }) }
        if let highlightPreTag { json["highlightPreTag"] = .string(highlightPreTag) }
        if let highlightPostTag { json["highlightPostTag"] = .string(highlightPostTag) }
        if let snippetEllipsisText { json["snippetEllipsisText"] = .string(snippetEllipsisText) }
        if let queryType { json["queryType"] = .string(queryType.rawValue) }
        if let typoTolerance {
            json["typoTolerance"] = switch typoTolerance {
            case .enabled: true
            case .disabled: false
            case .min: "min"
            case .strict: "strict"
            }
        }
        if let minWordSizefor1Typo { json["minWordSizefor1Typo"] = JSON(minWordSizefor1Typo) }
        if let minWordSizefor2Typos { json["minWordSizefor2Typos"] = JSON(minWordSizefor2Typos) }
        if let allowTyposOnNumericTokens { json["allowTyposOnNumericTokens"] = .bool(allowTyposOnNumericTokens) }
        if let disableTypoToleranceOnWords { json["disableTypoToleranceOnWords"] = strings(disableTypoToleranceOnWords) }
        if getRankingInfo { json["getRankingInfo"] = true }
        if let restrictSearchableAttributes { json["restrictSearchableAttributes"] = strings(restrictSearchableAttributes) }
        if let paginationLimitedTo { json["paginationLimitedTo"] = JSON(paginationLimitedTo) }
        if let distinct { json["distinct"] = JSON(distinct) }
        if counts != .exact { json["counts"] = .string(counts.rawValue) }
        // Every named filter as one `filters` string: the names only served the first refusal.
        let filter = filter
        if !filter.isEmpty { json["filters"] = .string(filter.rendered()) }
        if !optionalFilters.isEmpty {
            json["optionalFilters"] = .array(optionalFilters.map { clause in .array(clause.map { .string(Self.facetFilterText($0)) }) })
        }
        if !disjunctive.isEmpty {
            json["disjunctiveFilters"] = .object(JSONObject(disjunctive.map { ($0.attribute, JSON.string($0.filter.rendered())) },
                                                            uniquingKeysWith: { first, _ in first }))
        }
        if !hierarchical.isEmpty {
            json["hierarchicalFacets"] = .array(hierarchical.map { selection in
                ["attributes": strings(selection.attributes), "separator": .string(selection.separator),
                 "path": selection.path.isEmpty ? .null : .string(selection.path.joined(separator: selection.separator))]
            })
        }
        if let facets { json["facets"] = strings(facets) }
        if let maxValuesPerFacet { json["maxValuesPerFacet"] = JSON(maxValuesPerFacet) }
        if let sortFacetValuesByAlpha { json["sortFacetValuesBy"] = .string(sortFacetValuesByAlpha ? "alpha" : "count") }
        if let relevancyStrictness { json["relevancyStrictness"] = JSON(relevancyStrictness) }
        if let geo { json.merge(geo.json) { _, new in new } }
        return json
    }

    private mutating func readRefinements(_ json: JSONObject) throws(BackendError) {
        func parsed(_ name: String, _ parse: () throws(FilterSyntaxError) -> FilterExpression) throws(BackendError) -> FilterExpression {
            do { return try parse() } catch { throw .invalidParameter(name: name, expected: "a valid filter (\(error))") }
        }
        if let text = json["filters"], !text.isNull {
            guard let string = text.stringValue else { throw .invalidParameter(name: "filters", expected: "a string") }
            let expression = try parsed("filters") { () throws(FilterSyntaxError) in try FilterParser.parse(string) }
            filters.append(NamedFilter(parameter: "filters", expression: expression))
        }
        for name in ["facetFilters", "numericFilters", "tagFilters"] {
            guard let value = json[name], !value.isNull else { continue }
            let expression = try parsed(name) { () throws(FilterSyntaxError) in
                switch name {
                case "facetFilters": try FilterExpression(facetFilters: value)
                case "numericFilters": try FilterExpression(numericFilters: value)
                default: try FilterExpression(tagFilters: value)
                }
            }
            filters.append(NamedFilter(parameter: name, expression: expression))
        }
        if let value = json["optionalFilters"], !value.isNull {
            optionalFilters = try parsed("optionalFilters") { () throws(FilterSyntaxError) in try FilterExpression(facetFilters: value) }
                .clauses
        }
        if let value = json["disjunctiveFilters"], !value.isNull {
            let expected = "an object of attribute: filters string"
            guard let object = value.objectValue else { throw .invalidParameter(name: "disjunctiveFilters", expected: expected) }
            for (attribute, text) in object {
                guard let string = text.stringValue else { throw .invalidParameter(name: "disjunctiveFilters", expected: expected) }
                let expression = try parsed("disjunctiveFilters") { () throws(FilterSyntaxError) in try FilterParser.parse(string) }
                disjunctive.append(DisjunctiveGroup(attribute: attribute, filter: expression))
            }
        }
        if let value = json["hierarchicalFacets"], !value.isNull {
            hierarchical = try Self.hierarchicalSelections(value)
        }
        if let value = json["facets"], !value.isNull, value.stringValue != "" || value.arrayValue != nil {
            facets = try ParameterReader(json).stringList("facets") ?? []
        }
        let reader = ParameterReader(json)
        maxValuesPerFacet = try reader.int("maxValuesPerFacet", min: 0, max: 1000, expected: "an integer between 0 and 1000")
        if let v = try reader.string("sortFacetValuesBy") {
            guard v == "count" || v == "alpha" else { throw .invalidParameter(name: "sortFacetValuesBy", expected: "\"count\" or \"alpha\"") }
            sortFacetValuesByAlpha = v == "alpha"
        }
        relevancyStrictness = try reader.int("relevancyStrictness", min: 0, max: 100, expected: "an integer between 0 and 100")
        geo = try GeoQuery(json: json)
    }

    /// An atom as an element of `facetFilters` (the syntax `optionalFilters` is read in): `attribute:value`,
    /// `-` negating, `\-` for a value's own leading `-`.
    private static func facetFilterText(_ atom: FilterAtom) -> String {
        let value: String = switch atom.condition {
        case .facet(_, let value): value.text
        case .tag(let tag): tag
        case .comparison, .range: atom.rendered()  // not produced by the facetFilters syntax
        }
        let escaped = value.hasPrefix("-") ? "\\" + value : value
        return atom.attribute + ":" + (atom.isNegated ? "-" : "") + escaped
    }

    public static func snippetAttribute(_ entry: String) throws(BackendError) -> SnippetAttribute {
        guard let colon = entry.lastIndex(of: ":") else { return SnippetAttribute(attribute: entry) }
        guard let words = Int(entry[entry.index(after: colon)...]), words >= 0 else {
            throw .invalidParameter(name: "attributesToSnippet", expected: "entries like \"attribute\" or \"attribute:N\"")
        }
        return SnippetAttribute(attribute: String(entry[..<colon]), words: words)
    }

    static func typoTolerance(_ value: JSON) throws(BackendError) -> TypoTolerance {
        switch value {
        case .bool(true), .string("true"): return .enabled
        case .bool(false), .string("false"): return .disabled
        case .string("min"): return .min
        case .string("strict"): return .strict
        default: throw .invalidParameter(name: "typoTolerance", expected: "true, false, \"min\" or \"strict\"")
        }
    }

    private static func hierarchicalSelections(_ value: JSON) throws(BackendError) -> [HierarchicalSelection] {
        let expected = "an array of {attributes: [string], separator: string, path: string or null}"
        guard let items = value.arrayValue else { throw .invalidParameter(name: "hierarchicalFacets", expected: expected) }
        var result: [HierarchicalSelection] = []
        for item in items {
            guard let attributes = item["attributes"]?.arrayValue?.compactMap(\.stringValue), !attributes.isEmpty,
                  attributes.count == item["attributes"]?.arrayValue?.count
            else { throw .invalidParameter(name: "hierarchicalFacets", expected: expected) }
            let separator = item["separator"]?.stringValue ?? " > "
            if let p = item["path"], !p.isNull, p.stringValue == nil {
                throw .invalidParameter(name: "hierarchicalFacets", expected: expected)
            }
            result.append(HierarchicalSelection(attributes: attributes, separator: separator, selected: item["path"]?.stringValue))
        }
        return result
    }

    /// `text` cut at every occurrence of `separator` (which is not empty).
    static func split(_ text: String, _ separator: String) -> [String] {
        guard !separator.isEmpty else { return [text] }
        var parts: [String] = [], rest = Substring(text)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}
