import QuarryJSON
import QuarrySearchContract
import QuarryText

/// What does one hit of the page carry?
///
/// Reads the record from the `RecordSource`, keeps the retrieved attributes and `objectID`, and adds
/// `_highlightResult`, `_snippetResult` and `_rankingInfo` as asked, and its match ranges.
struct HitBuilder {
    let index: SearchIndex
    let parameters: SearchParameters
    let words: [QueryWord]
    private var highlighter: Highlighter

    init(index: SearchIndex, parameters: SearchParameters, words: [QueryWord]) {
        self.index = index
        self.parameters = parameters
        self.words = words
        highlighter = Highlighter(words: words, preTag: parameters.highlightPreTag, postTag: parameters.highlightPostTag)
    }

    /// nil when the record is gone from the store: deleted since this
    /// search's snapshot of the index was taken. The hit is left out rather
    /// than shown without its record.
    mutating func hit(_ document: RankedDocument, terms: [MatchedTerms], records: RecordSource)
        throws(BackendError) -> SearchHit?
    {
        let segment = index.segments[document.segment]
        let docID = segment.docIDs[document.ordinal]
        guard let record = try records.record(docID) else { return nil }
        var hit = JSONObject()
        if let retrieve = parameters.attributesToRetrieve {
            for name in retrieve { if let value = record[name] { hit[name] = value } }
        } else {
            for (key, value) in record { hit[key] = value }
        }
        hit["objectID"] = record["objectID"] ?? .null

        var highlights = JSONObject()
        var ranges = HitRanges()
        for name in highlightedAttributes(record) {
            guard let value = record[name], let mirrored = highlighter.mirror(value, path: name, ranges: &ranges) else { continue }
            highlights[name] = mirrored
        }
        hit["_highlightResult"] = .object(highlights)
        if !parameters.attributesToSnippet.isEmpty {
            var snippets = JSONObject()
            for attribute in parameters.attributesToSnippet {
                guard let value = record[attribute.attribute],
                      let s = highlighter.snippet(value, words: attribute.words, ellipsis: parameters.snippetEllipsisText)
                else { continue }
                snippets[attribute.attribute] = s
            }
            hit["_snippetResult"] = .object(snippets)
        }
        if parameters.getRankingInfo {
            hit["_rankingInfo"] = .object(rankingInfo(document, segment: segment, terms: terms))
        }
        return SearchHit(record: hit, ranges: ranges)
    }

    /// `attributesToHighlight`, or the searchable attributes' top-level names, or every attribute.
    private func highlightedAttributes(_ record: JSONObject) -> [String] {
        if let names = parameters.attributesToHighlight {
            // A nested path highlights its top-level attribute, which mirrors everything inside.
            var seen = Set<String>()
            return names.compactMap { $0.split(separator: ".").first.map(String.init) }.filter { seen.insert($0).inserted }
        }
        if index.layout.isDynamic { return record.keys.filter { $0 != "objectID" } }
        var seen = Set<String>(), names: [String] = []
        for components in index.layout.components {
            if let first = components.first, seen.insert(first).inserted { names.append(first) }
        }
        return names
    }

    private func rankingInfo(_ document: RankedDocument, segment: Segment, terms: [MatchedTerms]) -> JSONObject {
        var info = JSONObject()
        var match = DocumentMatch()
        if !terms.isEmpty {
            var matcher = DocumentMatcher(segment: segment, words: terms, layout: index.layout, allowedSlots: nil)
            match = matcher.evaluate(document.ordinal)
        }
        let attribute = match.attribute == .max ? 0 : match.attribute
        info["nbTypos"] = JSON(match.typos)
        info["firstMatchedWord"] = JSON(AttributeScore.rank(attribute) * 1000 + AttributeScore.position(attribute))
        info["proximityDistance"] = JSON(match.proximity)
        info["nbExactWords"] = JSON(match.exact)
        info["words"] = JSON(words.count)
        info["userScore"] = JSON(segment.count - document.ordinal)
        info["filters"] = 0
        info["geoDistance"] = 0
        return info
    }
}
