import QuarryJSON

/// Which few words of a long value best show why it matched?
///
/// `attr:N` keeps a window of N words around the first matched word (starting with the value when
/// nothing matched), marks matches inside it, and puts the ellipsis text where words were cut.
extension Highlighter {
    /// `path` is the value's dotted path, as in `mirror`, for `leafMatches`.
    package mutating func snippet(_ value: JSON, words count: Int, ellipsis: String, path: String = "",
                                 leafMatches: LeafMatches? = nil) -> JSON? {
        switch value {
        case .string(let text):
            return .object(snippet(text, words: count, ellipsis: ellipsis, matches: leafMatches?(text, path)))
        case .array(let elements):
            var mirrored: [JSON] = []
            for (i, element) in elements.enumerated() {
                mirrored.append(snippet(element, words: count, ellipsis: ellipsis, path: "\(path).\(i)", leafMatches: leafMatches) ?? .null)
            }
            return .array(mirrored)
        case .object(let object):
            var mirrored = JSONObject()
            for (key, member) in object {
                if let s = snippet(member, words: count, ellipsis: ellipsis, path: "\(path).\(key)", leafMatches: leafMatches) {
                    mirrored[key] = s
                }
            }
            return .object(mirrored)
        default: return nil
        }
    }

    mutating func snippet(_ text: String, words count: Int, ellipsis: String, matches given: [TokenMatch]? = nil) -> JSONObject {
        var matcher = TextMatcher(words: words)
        let matches = given ?? matcher.matches(in: text)
        let bytes = Array(text.utf8)
        var object = JSONObject()
        guard !matches.isEmpty, count > 0 else {
            object["value"] = .string(count > 0 ? text : "")
            object["matchLevel"] = .string("none")
            return object
        }
        let first = matches.firstIndex(where: \.isMatched) ?? 0
        let end = min(matches.count, max(first - (count - 1) / 2, 0) + count)
        let start = max(0, end - count)
        let window = matches[start..<end]
        // Keep the separators between the cut and the window, so the ellipsis stands apart as in the text.
        let from = start == 0 ? 0 : matches[start - 1].end
        let to = end == matches.count ? bytes.count : matches[end].start
        var value = tagged(bytes, window, from: from, to: to)
        if start > 0 { value = ellipsis + value }
        if end < matches.count { value += ellipsis }
        object["value"] = .string(value)
        object["matchLevel"] = .string(Self.matchLevel(window, wordCount: words.count))
        return object
    }
}
