import QuarryJSON
import QuarrySearchContract

/// What does a hit look like with the query's matches marked?
///
/// Builds `_highlightResult` (mirroring the record's strings, inside arrays and nested objects) and
/// `_matchRanges`, whose shape is `{ "path": [[start, end], …] }`: one entry per string value with at
/// least one match, keyed by its dotted path with array indices as components (`"tags.2"`,
/// `"brand.name"`), listing half-open spans of the marked text, ascending, counted from the start of that
/// value (kept in UTF-8 by `HitRanges`, which renders them in a connection's position encoding).
///
/// Shared (QuarryText), with an optional `LeafMatches` source, so the Typesense backend renders the
/// words its server marked with exactly these shapes and rules.
package struct Highlighter {
    /// A leaf's matches given its text and dotted path; nil lets `TextMatcher` decide.
    package typealias LeafMatches = (_ text: String, _ path: String) -> [TokenMatch]?

    let words: [QueryWord]
    let preTag: String
    let postTag: String
    private var matcher: TextMatcher

    package init(words: [QueryWord], preTag: String, postTag: String) {
        self.words = words
        self.preTag = preTag
        self.postTag = postTag
        matcher = TextMatcher(words: words)
    }

    /// The `_highlightResult` mirror of `value`, adding its spans to `ranges`; nil for values with no strings.
    package mutating func mirror(_ value: JSON, path: String, ranges: inout HitRanges, leafMatches: LeafMatches? = nil) -> JSON? {
        switch value {
        case .string(let text):
            return .object(result(text, path: path, ranges: &ranges, matches: leafMatches?(text, path)))
        case .int, .double:
            return SearchableLayout.text(of: value).map {
                .object(result($0, path: nil, ranges: &ranges, matches: leafMatches?($0, path)))
            }
        case .array(let elements):
            var mirrored: [JSON] = []
            for (i, element) in elements.enumerated() {
                mirrored.append(mirror(element, path: "\(path).\(i)", ranges: &ranges, leafMatches: leafMatches) ?? .null)
            }
            return .array(mirrored)
        case .object(let object):
            var mirrored = JSONObject()
            for (key, member) in object {
                if let m = mirror(member, path: "\(path).\(key)", ranges: &ranges, leafMatches: leafMatches) { mirrored[key] = m }
            }
            return .object(mirrored)
        case .null, .bool:
            return nil
        }
    }

    /// `{value, matchLevel, matchedWords, fullyHighlighted}` for one string; `path` nil records no ranges;
    /// `matches`, when given, replace `TextMatcher`'s.
    mutating func result(_ text: String, path: String?, ranges: inout HitRanges, matches given: [TokenMatch]? = nil) -> JSONObject {
        let matches = given ?? matcher.matches(in: text)
        let marked = matches.filter(\.isMatched)
        if let path, !marked.isEmpty {
            let utf8 = marked.map { ($0.start, $0.markEnd) }
            ranges.add(path: path, utf8: utf8, in: text)
        }
        let bytes = Array(text.utf8)
        var object = JSONObject()
        object["value"] = .string(tagged(bytes, matches[...], from: 0, to: bytes.count))
        object["matchLevel"] = .string(Self.matchLevel(matches[...], wordCount: words.count))
        object["matchedWords"] = .array(matchedWords(matches[...]).map { .string($0) })
        object["fullyHighlighted"] = .bool(!matches.isEmpty && matches.allSatisfy(\.isFullyMarked))
        return object
    }

    /// The bytes `from..<to` of the value, with every marked part inside wrapped in the tags.
    func tagged(_ bytes: [UInt8], _ matches: ArraySlice<TokenMatch>, from: Int, to: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(to - from + 16)
        var cursor = from
        for m in matches where m.isMatched && m.start >= from && m.markEnd <= to {
            out.append(contentsOf: bytes[cursor..<m.start])
            out.append(contentsOf: preTag.utf8)
            out.append(contentsOf: bytes[m.start..<m.markEnd])
            out.append(contentsOf: postTag.utf8)
            cursor = m.markEnd
        }
        out.append(contentsOf: bytes[cursor..<to])
        return String(decoding: out, as: UTF8.self)
    }

    func matchedWords(_ matches: ArraySlice<TokenMatch>) -> [String] {
        let mask = matches.reduce(UInt64(0)) { $0 | $1.words }
        return words.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { words[$0].text }
    }

    static func matchLevel(_ matches: ArraySlice<TokenMatch>, wordCount: Int) -> String {
        let matched = matches.reduce(UInt64(0)) { $0 | $1.words }.nonzeroBitCount
        if matched == 0 { return "none" }
        return matched >= wordCount ? "full" : "partial"
    }
}
