import QuarryJSON

/// Algolia's settings JSON ⇄ `IndexSettings`: exports import unchanged
/// (legacy names included), unknown names are kept in `unsupported`.
extension IndexSettings {
    /// Legacy names Algolia still accepts, and their current names.
    package static let legacyNames = ["attributesToIndex": "searchableAttributes", "slaves": "replicas", "master": "primary"]

    /// Names exports carry that describe the index rather than configure it.
    package static let readOnlyNames: Set<String> = ["primary"]

    /// Settings parsed from a full object, e.g. an Algolia export.
    public init(json: JSONObject) throws(BackendError) {
        self.init()
        try merge(json)
    }

    /// A partial update: only the given keys change; `null` resets a key to its default.
    /// Throws on the first malformed value, leaving `self` unchanged.
    public mutating func merge(_ json: JSONObject) throws(BackendError) {
        var updated = self
        for (name, value) in json {
            try updated.apply(name: name, value: value)
        }
        self = updated
    }

    /// The names in `json` that Quarry stores but does not act on.
    public static func unsupportedNames(in json: JSONObject) -> [String] {
        json.keys.filter {
            let current = legacyNames[$0] ?? $0
            return !supportedNames.contains(current) && !readOnlyNames.contains(current)
        }
    }

    static let supportedNames: Set<String> = [
        "searchableAttributes", "attributesToRetrieve", "ranking", "customRanking", "queryType",
        "typoTolerance", "minWordSizefor1Typo", "minWordSizefor2Typos", "allowTyposOnNumericTokens",
        "disableTypoToleranceOnAttributes", "disableTypoToleranceOnWords", "attributesToHighlight",
        "attributesToSnippet", "highlightPreTag", "highlightPostTag", "snippetEllipsisText", "hitsPerPage",
        "paginationLimitedTo", "distinct", "attributeForDistinct", "attributesForFaceting",
        "maxValuesPerFacet", "replicas", "relevancyStrictness",
    ]

    private mutating func apply(name: String, value: JSON) throws(BackendError) {
        let current = Self.legacyNames[name] ?? name
        // Read-only: the engine knows which index is a replica of which.
        if Self.readOnlyNames.contains(current) { return }
        guard Self.supportedNames.contains(current) else {
            unsupported[name] = value
            return
        }
        let defaults = IndexSettings()
        let read = SettingsValueReader(name: name, value: value)
        let isNull = value.isNull
        switch current {
        case "searchableAttributes":
            searchableAttributes = isNull ? defaults.searchableAttributes
                : try read.list("an attribute, \"a,b\" or \"unordered(a)\"", SettingsSyntax.searchableAttribute)
        case "attributesToRetrieve":
            attributesToRetrieve = try read.optionalStrings()
        case "ranking":
            ranking = isNull ? defaults.ranking
                : try read.list("a ranking criterion or asc(attr)/desc(attr)", SettingsSyntax.rankingCriterion)
        case "customRanking":
            customRanking = isNull ? defaults.customRanking
                : try read.list("asc(attr) or desc(attr)", SettingsSyntax.customRanking)
        case "queryType":
            guard !isNull else { queryType = defaults.queryType; return }
            guard let type = QueryType(rawValue: try read.string()) else {
                throw read.fail("prefixLast, prefixAll or prefixNone")
            }
            queryType = type
        case "typoTolerance":
            typoTolerance = isNull ? defaults.typoTolerance : try Self.typoTolerance(read)
        case "minWordSizefor1Typo":
            minWordSizefor1Typo = isNull ? defaults.minWordSizefor1Typo : try read.int()
        case "minWordSizefor2Typos":
            minWordSizefor2Typos = isNull ? defaults.minWordSizefor2Typos : try read.int()
        case "allowTyposOnNumericTokens":
            allowTyposOnNumericTokens = isNull ? defaults.allowTyposOnNumericTokens : try read.bool()
        case "disableTypoToleranceOnAttributes":
            disableTypoToleranceOnAttributes = isNull ? [] : try read.strings()
        case "disableTypoToleranceOnWords":
            disableTypoToleranceOnWords = isNull ? [] : try read.strings()
        case "attributesToHighlight":
            attributesToHighlight = try read.optionalStrings()
        case "attributesToSnippet":
            attributesToSnippet = isNull ? [] : try read.list("\"attr\" or \"attr:N\"", SettingsSyntax.snippetAttribute)
        case "highlightPreTag":
            highlightPreTag = isNull ? defaults.highlightPreTag : try read.string()
        case "highlightPostTag":
            highlightPostTag = isNull ? defaults.highlightPostTag : try read.string()
        case "snippetEllipsisText":
            snippetEllipsisText = isNull ? defaults.snippetEllipsisText : try read.string()
        case "hitsPerPage":
            hitsPerPage = isNull ? defaults.hitsPerPage : try read.int(in: 0...1000)
        case "paginationLimitedTo":
            paginationLimitedTo = isNull ? defaults.paginationLimitedTo : try read.int()
        case "distinct":
            distinct = isNull ? defaults.distinct : try Self.distinct(read)
        case "attributeForDistinct":
            attributeForDistinct = isNull ? nil : try read.string()
        case "attributesForFaceting":
            attributesForFaceting = isNull ? []
                : try read.list("an attribute, searchable(attr) or filterOnly(attr)", SettingsSyntax.facetAttribute)
        case "maxValuesPerFacet":
            maxValuesPerFacet = isNull ? defaults.maxValuesPerFacet : try read.int()
        case "replicas":
            replicas = isNull ? [] : try read.list("an index name or virtual(name)", SettingsSyntax.replica)
        case "relevancyStrictness":
            relevancyStrictness = isNull ? defaults.relevancyStrictness : try read.int(in: 0...100)
        default:
            unsupported[name] = value
        }
    }

    /// true/false, their string forms (older exports), "min", "strict".
    private static func typoTolerance(_ read: SettingsValueReader) throws(BackendError) -> TypoTolerance {
        switch read.value {
        case .bool(true), .string("true"): return .enabled
        case .bool(false), .string("false"): return .disabled
        case .string("min"): return .min
        case .string("strict"): return .strict
        default: throw read.fail("true, false, \"min\" or \"strict\"")
        }
    }

    /// A boolean (true = 1 hit per group) or a count of hits per group.
    private static func distinct(_ read: SettingsValueReader) throws(BackendError) -> Int {
        if case .bool(let b) = read.value { return b ? 1 : 0 }
        guard let count = read.value.intValue, (0...4).contains(count) else {
            throw read.fail("a boolean or an integer from 0 to 4")
        }
        return count
    }
}
