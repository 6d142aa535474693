import QuarryJSON

/// Renders a search response for a person: one line per hit that starts with its title (the first
/// searchable attribute, else the objectID) and goes on with the other attributes that matched, the
/// matches marked in the chosen `HighlightStyle`; then a line per counted facet.
struct HitsRenderer {
    static let facetValuesShown = 10
    var highlight: HighlightStyle
    /// The path of the attribute a hit's line starts with; nil: the record's first text attribute.
    var titleAttribute: String?
    /// The `maxValuesPerFacet` the search asked for: a facet holding that many may hold more.
    var facetValuesAsked: Int?
    var preTag = "<em>"
    var postTag = "</em>"

    /// The first searchable attribute of `searchableAttributes` as `getSettings` shows it
    /// (`unordered(name)`, or `"title,subtitle"` for attributes of one rank).
    static func titleAttribute(searchableAttributes: JSON?) -> String? {
        guard var first = searchableAttributes?.arrayValue?.first?.stringValue else { return nil }
        if first.hasPrefix("unordered("), first.hasSuffix(")") { first = String(first.dropFirst(10).dropLast()) }
        let name = String(first.prefix { $0 != "," }.filter { $0 != " " })
        return name.isEmpty ? nil : name
    }

    func render(_ response: JSON) -> String {
        let hits = response["hits"]?.arrayValue ?? []
        var lines: [String] = []
        let nbHits = response["nbHits"]?.intValue ?? hits.count
        let time = response["processingTimeMS"]?.intValue ?? 0
        if response["queryHasNoWords"]?.boolValue == true {
            lines.append("\(nbHits) hits: the query has no searchable words (emoji, symbols and punctuation are not indexed)")
        } else {
            lines.append("\(Self.counted(nbHits)) in \(time) ms")
        }
        for hit in hits {
            lines.append(line(for: hit))
        }
        if case .object(let facets)? = response["facets"] {
            // A terminal line per facet: the top values, and how many more (--json has them all).
            for (attribute, values) in facets {
                let all = values.objectValue ?? [:]
                var text = all.prefix(Self.facetValuesShown).map { "\($0.key) (\($0.value.intValue ?? 0))" }.joined(separator: ", ")
                if all.count > Self.facetValuesShown {
                    // Only the values asked for came back: with that many, more may exist.
                    let more = all.count - Self.facetValuesShown
                    text += all.count >= (facetValuesAsked ?? .max) ? ", … \(more)+ more" : ", … \(more) more"
                }
                lines.append("facet \(attribute): " + text)
            }
        }
        return lines.joined(separator: "\n")
    }

    private func line(for hit: JSON) -> String {
        let id = hit["objectID"]?.stringValue ?? hit["objectID"].map(JSONWriter.string) ?? "?"
        let record = hit.objectValue ?? [:]
        let titlePath = titleAttribute ?? record.first { key, value in
            !key.hasPrefix("_") && key != "objectID" && value.stringValue != nil
        }?.key
        let titleKey = titlePath.map { String($0.prefix { $0 != "." }) }
        var title = titlePath.flatMap { path in
            value(at: path, in: hit["_highlightResult"]).flatMap(highlightedText) ?? value(at: path, in: hit).flatMap(plainText)
        } ?? ""
        if title.isEmpty { title = id }
        var parts = [title]
        if case .object(let highlights)? = hit["_highlightResult"] {
            for (attribute, value) in highlights where attribute != titleKey {
                guard let text = firstMatchedText(value) else { continue }
                parts.append("\(attribute): \(decorate(text))")
            }
        }
        // One line per hit, whatever the values hold.
        return "\(id)\t" + FzfLines.flattened(parts.joined(separator: "  |  "))
    }

    /// The value at a dotted path (`speaker.name`).
    private func value(at path: String, in root: JSON?) -> JSON? {
        var value = root
        for component in path.split(separator: ".") { value = value?[String(component)] }
        return value
    }

    /// A highlighted attribute's text, matches marked: its value, or its elements' joined.
    private func highlightedText(_ value: JSON) -> String? {
        switch value {
        case .object(let result) where result["matchLevel"] != nil:
            return result["value"]?.stringValue.map(decorate)
        case .array(let elements):
            let texts = elements.compactMap(highlightedText)
            return texts.isEmpty ? nil : texts.joined(separator: ", ")
        default:
            return nil
        }
    }

    private func plainText(_ value: JSON) -> String? {
        switch value {
        case .string(let text): return text
        case .null: return nil
        case .array(let elements): return elements.map { $0.stringValue ?? JSONWriter.string($0) }.joined(separator: ", ")
        default: return JSONWriter.string(value)
        }
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
        switch highlight {
        case .tags: text
        case .color: text.replacing(preTag, with: "\u{1B}[1;33m").replacing(postTag, with: "\u{1B}[0m")
        case .none: text.replacing(preTag, with: "").replacing(postTag, with: "")
        }
    }

    /// "no hits", "1 hit", "2 hits", as the other frontends count.
    static func counted(_ count: Int) -> String {
        count == 0 ? "no hits" : count == 1 ? "1 hit" : "\(count) hits"
    }
}
