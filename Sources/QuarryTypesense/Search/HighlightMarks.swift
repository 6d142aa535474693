import Foundation
import QuarryJSON

/// What did Typesense mark in one hit, field by field and element by element?
///
/// Reads the hit's `highlight` object, which in 0.24.1 lists every element of a string[] field with
/// its full value (`highlight_full_fields`); the legacy `highlights` array is the fallback, though
/// it lists at most 5 matched elements of an array field (measured live). Fields that matched
/// nothing are absent from both.
struct HighlightMarks {
    /// Private-use tags, so they hardly ever clash with record text (protocol/backends.md,
    /// "Highlighting"); a value that holds them no longer strips back to itself, and the
    /// engine's matcher decides for it.
    static let startTag: Unicode.Scalar = "\u{E000}"
    static let endTag: Unicode.Scalar = "\u{E001}"

    /// By field, by element index: the value with Typesense's tags.
    private(set) var tagged: [String: [Int: String]] = [:]

    init(hit: JSONObject) {
        if let highlight = hit["highlight"]?.objectValue {
            self.init(highlight: highlight)
        } else {
            self.init(highlights: hit["highlights"]?.arrayValue ?? [])
        }
    }

    /// From the `highlight` object: a field maps to one `{value, snippet, matched_tokens}` or an array of them.
    init(highlight: JSONObject) {
        for (field, entry) in highlight {
            switch entry {
            case .array(let elements):
                for (i, element) in elements.enumerated() {
                    if let text = Self.text(element.objectValue) { tagged[field, default: [:]][i] = text }
                }
            case .object(let object):
                if let text = Self.text(object) { tagged[field, default: [:]][0] = text }
            default:
                continue
            }
        }
    }

    /// From the legacy `highlights` array: `{field, indices, values}` for arrays, `{field, value}` for strings.
    init(highlights: [JSON]) {
        for entry in highlights {
            guard let object = entry.objectValue, let field = object["field"]?.stringValue else { continue }
            if let values = (object["values"] ?? object["snippets"])?.arrayValue {
                let indices = object["indices"]?.arrayValue?.compactMap(\.intValue) ?? Array(values.indices)
                for (i, value) in zip(indices, values) {
                    if let text = value.stringValue { tagged[field, default: [:]][i] = text }
                }
            } else if let text = Self.text(object) {
                tagged[field, default: [:]][0] = text
            }
        }
    }

    /// The full value when Typesense sent it, else the snippet (located in the stored text later).
    private static func text(_ object: JSONObject?) -> String? {
        object?["value"]?.stringValue ?? object?["snippet"]?.stringValue
    }

    /// The UTF-8 spans Typesense marked in `stored`, or nil when its tagged text is not (part of) that value.
    static func spans(_ tagged: String, in stored: String) -> [(Int, Int)]? {
        // In UTF-8 the tags are EE 80 80 and EE 80 81: bytes are copied, no scalar is decoded.
        let bytes = Array(tagged.utf8)
        var plain: [UInt8] = []
        plain.reserveCapacity(bytes.count)
        var spans: [(Int, Int)] = []
        var open: Int?
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0xEE, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0x80 || bytes[i + 2] == 0x81 {
                if bytes[i + 2] == 0x80 {
                    open = plain.count
                } else {
                    if let start = open, plain.count > start { spans.append((start, plain.count)) }
                    open = nil
                }
                i += 3
                continue
            }
            plain.append(bytes[i])
            i += 1
        }
        if plain.elementsEqual(stored.utf8) { return spans }
        // A snippet (no full value) is a window of the value: shift its spans to where it starts.
        let text = String(decoding: plain, as: UTF8.self)
        guard !text.isEmpty, let range = stored.range(of: text) else { return nil }
        let shift = stored.utf8.distance(from: stored.startIndex, to: range.lowerBound)
        return spans.map { ($0.0 + shift, $0.1 + shift) }
    }
}
