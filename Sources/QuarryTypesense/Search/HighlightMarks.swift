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
        var plain = String.UnicodeScalarView()
        var spans: [(Int, Int)] = []
        var offset = 0, open: Int?
        for scalar in tagged.unicodeScalars {
            switch scalar {
            case startTag: open = offset
            case endTag:
                if let start = open, offset > start { spans.append((start, offset)) }
                open = nil
            default:
                plain.append(scalar)
                offset += UTF8.width(scalar)
            }
        }
        let text = String(plain)
        if text == stored { return spans }
        // A snippet (no full value) is a window of the value: shift its spans to where it starts.
        guard !text.isEmpty, let range = stored.range(of: text) else { return nil }
        let shift = stored.utf8.distance(from: stored.startIndex, to: range.lowerBound)
        return spans.map { ($0.0 + shift, $0.1 + shift) }
    }
}
