import QuarryJSON

/// Turns an engine hit into what a model reads: the retrieved attributes, with
/// long strings cut to a snippet around the highlighted match, and none of the
/// highlight, snippet, match-range or ranking bookkeeping.
public enum HitCompaction {
    /// Strings longer than this many characters are cut.
    public static let longString = 300
    /// Characters of context a snippet keeps before its match.
    static let leadingContext = 80

    public static func compact(_ hit: JSON) -> JSON {
        guard case .object(let fields) = hit else { return hit }
        let highlights = fields["_highlightResult"]?.objectValue ?? [:]
        var compacted = JSONObject()
        for (name, value) in fields where !name.hasPrefix("_") {
            if case .string(let text) = value, text.count > longString {
                compacted[name] = .string(snippet(text, highlighted: highlights[name]?["value"]?.stringValue,
                                                 matched: highlights[name]?["matchLevel"]?.stringValue != "none"))
            } else {
                compacted[name] = trimmed(value)
            }
        }
        if let id = fields["objectID"] { compacted["objectID"] = id }
        return .object(compacted)
    }

    /// Cuts every long string inside a value (nested records have no highlight to centre on).
    public static func trimmed(_ value: JSON) -> JSON {
        switch value {
        case .string(let text) where text.count > longString: .string(String(text.prefix(longString)) + "…")
        case .array(let items): .array(items.map(trimmed))
        case .object(let fields): .object(fields.mapValues(trimmed))
        default: value
        }
    }

    /// About `longString` characters of the highlighted text around its first
    /// match (marked `<em>` as the engine marks it), else the text's beginning.
    static func snippet(_ text: String, highlighted: String?, matched: Bool) -> String {
        guard matched, let highlighted, let mark = highlighted.firstRange(of: "<em>") else {
            return String(text.prefix(longString)) + "…"
        }
        let start = highlighted.index(mark.lowerBound, offsetBy: -leadingContext, limitedBy: highlighted.startIndex)
            ?? highlighted.startIndex
        let end = highlighted.index(start, offsetBy: longString, limitedBy: highlighted.endIndex) ?? highlighted.endIndex
        var window = String(highlighted[start..<end])
        // A cut inside a tag would leave half a mark.
        if let open = window.lastIndex(of: "<"), !window[open...].contains(">") {
            window = String(window[..<open])
        }
        return (start == highlighted.startIndex ? "" : "…") + window + (end == highlighted.endIndex ? "" : "…")
    }
}
