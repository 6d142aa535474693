import QuarryJSON

/// The unit match ranges are counted in, as LSP's `positionEncoding`: UTF-8 bytes, UTF-16 code units
/// (JavaScript, Neovim's LSP client), or code points (Emacs and Python index strings by them).
public enum PositionEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8", utf16 = "utf-16", utf32 = "utf-32"
}

/// What exactly was asked: one search's parameters, with the index settings filling the gaps.
///
/// Parsed from Algolia's parameter names. Unknown keys are ignored here (the server may warn); a
/// known key with the wrong type throws `BackendError.invalidParameter` naming it and what it expects.
/// Numbers and booleans are also accepted as strings, as Algolia's `params` query strings carry them.
public struct SearchParameters: Sendable {
    public var query: String = ""
    public var page: Int = 0
    public var hitsPerPage: Int
    /// `nil` retrieves every attribute.
    public var attributesToRetrieve: [String]?
    /// `nil` highlights every searchable attribute (every attribute when none are configured).
    public var attributesToHighlight: [String]?
    public var attributesToSnippet: [SnippetAttribute]
    public var highlightPreTag: String
    public var highlightPostTag: String
    public var snippetEllipsisText: String
    public var queryType: QueryType
    public var typoTolerance: TypoTolerance
    public var minWordSizefor1Typo: Int
    public var minWordSizefor2Typos: Int
    public var allowTyposOnNumericTokens: Bool
    public var disableTypoToleranceOnWords: [String]
    public var getRankingInfo: Bool = false
    /// Searchable attributes (paths) to search in; `nil` means all of them.
    public var restrictSearchableAttributes: [String]?
    public var paginationLimitedTo: Int
    /// How many hits to keep per `attributeForDistinct` group; 0 keeps all.
    public var distinct: Int
    public var positionEncoding: PositionEncoding
    /// Also put the ranges in the other encodings in each hit (`HitRanges.otherKeys`),
    /// for results shared by connections of any encoding.
    public var alsoOtherRanges = false
    /// Filters, facets, geo and relevant sort (see `SearchRefinements`).
    public var refinements: SearchRefinements

    public init(settings: IndexSettings, positionEncoding: PositionEncoding = .utf16) {
        hitsPerPage = settings.hitsPerPage
        attributesToRetrieve = settings.attributesToRetrieve.flatMap { $0.contains("*") ? nil : $0 }
        attributesToHighlight = settings.attributesToHighlight
        attributesToSnippet = settings.attributesToSnippet
        highlightPreTag = settings.highlightPreTag
        highlightPostTag = settings.highlightPostTag
        snippetEllipsisText = settings.snippetEllipsisText
        queryType = settings.queryType
        typoTolerance = settings.typoTolerance
        minWordSizefor1Typo = settings.minWordSizefor1Typo
        minWordSizefor2Typos = settings.minWordSizefor2Typos
        allowTyposOnNumericTokens = settings.allowTyposOnNumericTokens
        disableTypoToleranceOnWords = settings.disableTypoToleranceOnWords
        paginationLimitedTo = settings.paginationLimitedTo
        distinct = settings.distinct
        self.positionEncoding = positionEncoding
        refinements = SearchRefinements(settings: settings)
    }

    public init(json: JSONObject, settings: IndexSettings, positionEncoding: PositionEncoding = .utf16) throws(BackendError) {
        self.init(settings: settings, positionEncoding: positionEncoding)
        let p = ParameterReader(json)
        refinements = try SearchRefinements(json: json, settings: settings)
        if let v = try p.string("query") { query = v }
        if let v = try p.int("page", min: 0, expected: "a non-negative integer") { page = v }
        if let v = try p.int("hitsPerPage", min: 0, max: 1000, expected: "an integer between 0 and 1000") { hitsPerPage = v }
        if let v = try p.stringList("attributesToRetrieve") { attributesToRetrieve = v.contains("*") ? nil : v }
        if let v = try p.stringList("attributesToHighlight") { attributesToHighlight = v.contains("*") ? nil : v }
        if let v = try p.stringList("attributesToSnippet") {
            attributesToSnippet = try v.map { (entry) throws(BackendError) in try Self.snippetAttribute(entry) }
        }
        if let v = try p.string("highlightPreTag") { highlightPreTag = v }
        if let v = try p.string("highlightPostTag") { highlightPostTag = v }
        if let v = try p.string("snippetEllipsisText") { snippetEllipsisText = v }
        if let v = try p.string("queryType") {
            guard let type = QueryType(rawValue: v) else {
                throw .invalidParameter(name: "queryType", expected: "one of prefixLast, prefixAll, prefixNone")
            }
            queryType = type
        }
        if let v = json["typoTolerance"] { typoTolerance = try Self.typoTolerance(v) }
        if let v = try p.int("minWordSizefor1Typo", min: 0, expected: "a non-negative integer") { minWordSizefor1Typo = v }
        if let v = try p.int("minWordSizefor2Typos", min: 0, expected: "a non-negative integer") { minWordSizefor2Typos = v }
        if let v = try p.bool("allowTyposOnNumericTokens") { allowTyposOnNumericTokens = v }
        if let v = try p.stringList("disableTypoToleranceOnWords") { disableTypoToleranceOnWords = v }
        if let v = try p.bool("getRankingInfo") { getRankingInfo = v }
        if let v = try p.stringList("restrictSearchableAttributes") { restrictSearchableAttributes = v.isEmpty ? nil : v }
        if let v = try p.int("paginationLimitedTo", min: 0, max: 20_000, expected: "an integer between 0 and 20000") {
            paginationLimitedTo = v
        }
        if let v = json["distinct"] {
            switch v {
            case .bool(let b): distinct = b ? 1 : 0
            default:
                guard let n = try p.int("distinct", min: 0, max: 4, expected: "a boolean or an integer between 0 and 4") else { break }
                distinct = n
            }
        }
    }

    static func snippetAttribute(_ entry: String) throws(BackendError) -> SnippetAttribute {
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
}

/// Typed access to a parameter object, throwing the parameter's name and expectation on a mismatch.
package struct ParameterReader {
    package let json: JSONObject

    package init(_ json: JSONObject) { self.json = json }

    package func string(_ name: String) throws(BackendError) -> String? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let s = value.stringValue else { throw .invalidParameter(name: name, expected: "a string") }
        return s
    }

    package func int(_ name: String, min: Int, max: Int = Int.max, expected: String) throws(BackendError) -> Int? {
        guard let value = json[name], !value.isNull else { return nil }
        let n: Int? = switch value {
        case .string(let s): Int(s)
        default: value.intValue
        }
        guard let n, n >= min, n <= max else { throw .invalidParameter(name: name, expected: expected) }
        return n
    }

    package func bool(_ name: String) throws(BackendError) -> Bool? {
        guard let value = json[name], !value.isNull else { return nil }
        switch value {
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        default: throw .invalidParameter(name: name, expected: "a boolean")
        }
    }

    /// An array of strings, or one comma-separated string.
    package func stringList(_ name: String) throws(BackendError) -> [String]? {
        guard let value = json[name], !value.isNull else { return nil }
        switch value {
        case .string(let s):
            return s.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        case .array(let items):
            var result: [String] = []
            for item in items {
                guard let s = item.stringValue else { throw .invalidParameter(name: name, expected: "an array of strings") }
                result.append(s)
            }
            return result
        default:
            throw .invalidParameter(name: name, expected: "an array of strings")
        }
    }
}
