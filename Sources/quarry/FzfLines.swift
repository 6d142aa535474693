import QuarryJSON

/// Turns session hits into fzf input lines and a preview, colouring the
/// spans of `_matchRanges`. `quarry fzf` negotiates UTF-16, LSP's default,
/// and converts the spans to UTF-8 bytes here.
///
/// A line is `objectID TAB display TAB hit-as-JSON`: fzf shows field 2, the
/// preview and the final output read field 3, so neither needs the daemon.
struct FzfLines {
    var attribute: String?
    static let mark = "\u{1B}[1;33m"
    static let reset = "\u{1B}[0m"
    static let dim = "\u{1B}[2m"
    /// Longest string kept in the embedded copy (it travels as one argv entry to the preview).
    static let previewLimit = 4000

    func line(for hit: JSON) -> String {
        guard case .object(let fields) = hit else { return "" }
        let id = fields["objectID"]?.stringValue ?? fields["objectID"].map(JSONWriter.string) ?? "?"
        let ranges = fields["_matchRanges"]?.objectValue ?? [:]
        let shown = attribute ?? fields.first { key, value in !key.hasPrefix("_") && key != "objectID" && value.stringValue != nil }?.key
        var display = shown.map { FzfLines.coloured(FzfLines.text(at: $0, in: hit), spans: ranges[$0]) } ?? id
        if let (path, spans) = ranges.first(where: { key, _ in key != shown }) {
            display += "  \(FzfLines.dim)\(path):\(FzfLines.reset) " + FzfLines.excerpt(FzfLines.text(at: path, in: hit), spans: spans)
        }
        return [id, display, JSONWriter.string(FzfLines.embedded(fields))].map(FzfLines.flattened).joined(separator: "\t")
    }

    /// The first line of a reload, which fzf keeps as the header (`--header-lines 1`): how many
    /// records match, and how many of them are listed when that is fewer.
    static func header(for result: JSON) -> String {
        let listed = result["hits"]?.arrayValue?.count ?? 0
        let nbHits = result["nbHits"]?.intValue ?? listed
        let text: String
        if result["queryHasNoWords"]?.boolValue == true {
            text = "0 hits: the query has no searchable words"
        } else if isEstimate(result) {
            text = listed < nbHits ? "\(listed) of ~\(grouped(nbHits)) hits" : "~\(grouped(nbHits)) hits"
        } else if listed < nbHits {
            text = "\(listed) of \(grouped(nbHits)) hits"
        } else {
            text = HitsRenderer.counted(nbHits)
        }
        return "-\t\(dim)\(text)\(reset)\t{}"
    }

    /// Whether `nbHits` is an estimate: a Typesense cluster's fast answer, which exact counts follow.
    static func isEstimate(_ result: JSON) -> Bool {
        result["exhaustive"]?["nbHits"]?.boolValue == false || result["exhaustiveNbHits"]?.boolValue == false
    }

    /// 1216 as "1,216".
    static func grouped(_ count: Int) -> String {
        var text = String(count)
        var at = text.count - 3
        while at > 0 {
            text.insert(",", at: text.index(text.startIndex, offsetBy: at))
            at -= 3
        }
        return text
    }

    /// The preview of a line's field 3: one attribute per line, matches in colour.
    static func preview(_ hit: JSON) -> String {
        guard case .object(let fields) = hit else { return JSONWriter.string(hit) }
        let ranges = fields["_matchRanges"]?.objectValue ?? [:]
        return fields.compactMap { key, value -> String? in
            if key.hasPrefix("_") { return nil }
            let text = value.stringValue.map { coloured($0, spans: ranges[key]) } ?? JSONWriter.string(value)
            return "\(mark)\(key)\(reset): \(text)"
        }.joined(separator: "\n")
    }

    /// The record a chosen line stands for (without `_` members).
    static func record(_ hit: JSON) -> JSON {
        guard case .object(let fields) = hit else { return hit }
        return .object(fields.filter { !$0.key.hasPrefix("_") })
    }

    /// The string at a dotted path (`tags.2`), else the value as JSON.
    static func text(at path: String, in hit: JSON) -> String {
        var value: JSON? = hit
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            if let position = Int(component), case .array(let elements)? = value {
                value = elements.indices.contains(position) ? elements[position] : nil
            } else {
                value = value?[String(component)]
            }
        }
        return value?.stringValue ?? value.map(JSONWriter.string) ?? ""
    }

    static func coloured(_ text: String, spans: JSON?) -> String {
        coloured(text, bytes: byteSpans(text, spans))
    }

    /// UTF-16 `[start, end)` spans as UTF-8 byte spans of `text`; spans that fall outside are dropped.
    static func byteSpans(_ text: String, _ spans: JSON?) -> [(Int, Int)] {
        var byteAt: [Int: Int] = [0: 0]
        var units = 0
        var bytes = 0
        for scalar in text.unicodeScalars {
            units += scalar.utf16.count
            bytes += scalar.utf8.count
            byteAt[units] = bytes
        }
        return (spans?.arrayValue ?? []).compactMap { span in
            guard let pair = span.arrayValue, pair.count == 2, let start = pair[0].intValue, let end = pair[1].intValue,
                  let lower = byteAt[start], let upper = byteAt[end], lower < upper else { return nil }
            return (lower, upper)
        }
    }

    static func coloured(_ text: String, bytes spans: [(Int, Int)]) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var position = 0
        for (start, end) in spans where start >= position && end <= bytes.count {
            output += bytes[position..<start] + Array(mark.utf8) + bytes[start..<end] + Array(reset.utf8)
            position = end
        }
        output += bytes[position...]
        return String(decoding: output, as: UTF8.self)
    }

    /// About 60 bytes around the first span, cut on character boundaries.
    static func excerpt(_ text: String, spans: JSON) -> String {
        let bytes = Array(text.utf8)
        let spans = byteSpans(text, spans)
        guard let first = spans.first?.0 else { return text }
        var start = max(0, first - 20)
        var end = min(bytes.count, first + 40)
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let shifted = spans.filter { $0.0 >= start && $0.1 <= end }.map { ($0.0 - start, $0.1 - start) }
        let body = coloured(String(decoding: bytes[start..<end], as: UTF8.self), bytes: shifted)
        return (start > 0 ? "…" : "") + body + (end < bytes.count ? "…" : "")
    }

    /// fzf splits lines on newlines and fields on tabs.
    static func flattened(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\t" || $0 == "\r" ? " " : $0 })
    }

    private static func embedded(_ fields: JSONObject) -> JSON {
        var copy = fields
        copy["_rankingInfo"] = nil
        copy["_highlightResult"] = nil
        copy["_snippetResult"] = nil
        for (key, value) in copy {
            if let text = value.stringValue, text.utf8.count > previewLimit {
                copy[key] = .string(String(text.prefix(previewLimit)) + "…")
                if case .object(var ranges)? = copy["_matchRanges"] {
                    ranges[key] = nil
                    copy["_matchRanges"] = .object(ranges)
                }
            }
        }
        return .object(copy)
    }
}
