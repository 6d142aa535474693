import QuarryJSON

/// Renders a search response for a person: one line per hit, its highlighted
/// attributes, the match markers shown bold when the terminal has colour.
struct HitsRenderer {
    var colour: Bool
    var preTag = "<em>"
    var postTag = "</em>"

    func render(_ response: JSON) -> String {
        let hits = response["hits"]?.arrayValue ?? []
        var lines: [String] = []
        let nbHits = response["nbHits"]?.intValue ?? hits.count
        let time = response["processingTimeMS"]?.intValue ?? 0
        lines.append("\(nbHits) hits in \(time) ms")
        for hit in hits {
            let id = hit["objectID"]?.stringValue ?? "?"
            var parts: [String] = []
            if case .object(let highlights)? = hit["_highlightResult"] {
                for (attribute, value) in highlights {
                    guard let text = firstMatchedText(value) else { continue }
                    parts.append("\(attribute): \(decorate(text))")
                }
            }
            if parts.isEmpty, case .object(let record) = hit {
                parts = record.prefix(3).compactMap { key, value in
                    key.hasPrefix("_") || key == "objectID" ? nil : "\(key): \(JSONWriter.string(value))"
                }
            }
            lines.append("\(id)\t" + parts.joined(separator: "  |  "))
        }
        if case .object(let facets)? = response["facets"] {
            for (attribute, values) in facets {
                let counts = (values.objectValue ?? [:]).map { "\($0.key) (\($0.value.intValue ?? 0))" }
                lines.append("facet \(attribute): " + counts.joined(separator: ", "))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The highlighted value of an attribute that matched (the first string in an array that did).
    private func firstMatchedText(_ value: JSON) -> String? {
        switch value {
        case .object(let result) where result["matchLevel"] != nil:
            return result["matchLevel"]?.stringValue == "none" ? nil : result["value"]?.stringValue
        case .array(let elements):
            return elements.lazy.compactMap(firstMatchedText).first
        case .object(let nested):
            return nested.values.lazy.compactMap(firstMatchedText).first
        default:
            return nil
        }
    }

    private func decorate(_ text: String) -> String {
        colour ? text.replacing(preTag, with: "\u{1B}[1;33m").replacing(postTag, with: "\u{1B}[0m") : text
    }
}
