import QuarryJSON
import QuarrySearchContract
import QuarryText

/// What does a Typesense hit carry beyond its record, rendered exactly as the embedded engine would?
///
/// Typesense marks every searched `s_` field in full with private-use tags; stripping them gives the
/// marked spans in the stored values (`HighlightMarks`), element i of a field being the i-th leaf of
/// its slot (`HighlightLeaves`). The spans become the engine's per-word matches (`HighlightTokens`)
/// and the engine's own `Highlighter` renders `_highlightResult`, `_snippetResult` and the match
/// ranges, so shapes, tags, match levels, snippet windows and range units cannot drift from the engine's. Values Typesense
/// did not search (attributes outside the searchable ones, slots outside
/// `restrictSearchableAttributes`) are matched by the engine's matcher, as the engine does.
public struct HitHighlighter: HitHighlighting {
    public let settings: IndexSettings
    let layout: SearchableLayout

    public init(settings: IndexSettings) {
        self.settings = settings
        layout = SearchableLayout(settings: settings)
    }

    public func typesenseParameters(for parameters: SearchParameters, queryBy: [String]) -> JSONObject {
        guard !queryBy.isEmpty else { return [:] }
        let fields = JSON.string(queryBy.joined(separator: ","))
        return [
            "highlight_fields": fields,
            "highlight_full_fields": fields,
            "highlight_start_tag": .string(String(HighlightMarks.startTag)),
            "highlight_end_tag": .string(String(HighlightMarks.endTag)),
            // Only the `highlight` object is read: the legacy `highlights` array repeated every full
            // value, a fifth of a keystroke's answer to send and parse (Benchmarks/RESULTS.md).
            "enable_highlight_v1": false,
        ]
    }

    /// From the legacy `highlights` array, which lists at most 5 matched elements of an array field:
    /// prefer `members(record:typesenseHit:parameters:)`.
    public func members(record: JSONObject, highlights: [JSON], parameters: SearchParameters) -> (members: JSONObject, ranges: HitRanges) {
        members(record: record, marks: HighlightMarks(highlights: highlights), parameters: parameters)
    }

    /// From the whole Typesense hit (its `highlight` object, else its `highlights` array).
    public func members(record: JSONObject, typesenseHit: JSONObject, parameters: SearchParameters) -> (members: JSONObject, ranges: HitRanges) {
        members(record: record, marks: HighlightMarks(hit: typesenseHit), parameters: parameters)
    }

    func members(record: JSONObject, marks: HighlightMarks, parameters: SearchParameters) -> (members: JSONObject, ranges: HitRanges) {
        let words = QueryWords.parse(parameters)
        let marked = markedLeaves(record, marks: marks, words: words, parameters: parameters)
        let leafMatches: Highlighter.LeafMatches = { text, path in
            guard let leaf = marked[path], leaf.text == text else { return nil }
            return leaf.matches
        }
        var highlighter = Highlighter(words: words, preTag: parameters.highlightPreTag, postTag: parameters.highlightPostTag)
        var members = JSONObject()
        // As HitBuilder.hit, member for member.
        var highlights = JSONObject()
        var ranges = HitRanges()
        for name in highlightedAttributes(record, parameters: parameters) {
            guard let value = record[name],
                  let mirrored = highlighter.mirror(value, path: name, ranges: &ranges, leafMatches: leafMatches)
            else { continue }
            highlights[name] = mirrored
        }
        members["_highlightResult"] = .object(highlights)
        if !parameters.attributesToSnippet.isEmpty {
            var snippets = JSONObject()
            for attribute in parameters.attributesToSnippet {
                guard let value = record[attribute.attribute],
                      let s = highlighter.snippet(value, words: attribute.words, ellipsis: parameters.snippetEllipsisText,
                                                  path: attribute.attribute, leafMatches: leafMatches)
                else { continue }
                snippets[attribute.attribute] = s
            }
            members["_snippetResult"] = .object(snippets)
        }
        return (members, ranges)
    }

    /// By leaf path: the text and Typesense's marks as engine matches, for every leaf of a searched slot.
    func markedLeaves(_ record: JSONObject, marks: HighlightMarks, words: [QueryWord], parameters: SearchParameters)
        -> [String: (text: String, matches: [TokenMatch])]
    {
        // As TextQuery: restrictSearchableAttributes narrows `query_by` for named slots only.
        let restricted = layout.isDynamic ? nil : parameters.restrictSearchableAttributes.map(Set.init)
        var result: [String: (text: String, matches: [TokenMatch])] = [:]
        let leaves = HighlightLeaves.leaves(of: record, layout: layout, searched: { restricted?.contains($0) ?? true })
        for leaf in leaves {
            var spans: [(Int, Int)] = []
            if let tagged = marks.tagged[leaf.field]?[leaf.element] {
                // Not this value (the record changed since): the engine's matcher decides.
                guard let found = HighlightMarks.spans(tagged, in: leaf.text) else { continue }
                spans = found
            }
            if let previous = result[leaf.path] {
                // A leaf in two slots (`brand` and `brand.name`): marked where either field marked it.
                spans += previous.matches.filter(\.isMatched).map { ($0.start, $0.markEnd) }
                spans.sort { $0.0 < $1.0 }
            }
            result[leaf.path] = (leaf.text, HighlightTokens.matches(in: leaf.text, spans: spans, words: words))
        }
        return result
    }

    /// HitBuilder's choice: `attributesToHighlight` (top-level names), else the searchable attributes'
    /// top-level names, else every attribute but objectID.
    func highlightedAttributes(_ record: JSONObject, parameters: SearchParameters) -> [String] {
        var seen = Set<String>()
        if let names = parameters.attributesToHighlight {
            return names.compactMap { $0.split(separator: ".").first.map(String.init) }.filter { seen.insert($0).inserted }
        }
        if layout.isDynamic { return record.keys.filter { $0 != "objectID" } }
        return layout.names.compactMap { $0.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) }
            .filter { seen.insert($0).inserted }
    }
}
