import QuarryJSON
import QuarrySearchContract
import QuarryText

/// Which fields does the text query search, how, and what makes Typesense find every match?
///
/// `query_by` lists the `s_` fields of the searchable attributes in priority order (weights fall
/// with the rank), or every `s_` field when `searchableAttributes` is empty. Typo budgets use the
/// engine's word-length thresholds. `exhaustive` holds the parameters without which Typesense
/// drops hits once it has "enough" (protocol/backends.md, "Exact counts"): counts are exact only with them.
/// In `SearchCounts.fast`, the two that bound how far a word expands (prefix candidates, typos once
/// exact hits exist) keep Typesense's defaults, which is what makes it fast; the others keep the
/// hit set the engine's (no word dropped, no split or joined words, no overrides).
struct TextQuery: Sendable {
    /// The text sent as `q`: `*` when the query has no word.
    let q: String
    let hasWords: Bool
    /// Text but no word (`🍕`): matches nothing, as in the engine (`QueryWords.holdsNoWord`).
    let holdsNoWord: Bool
    /// `s_` fields in priority order, only those the collection has.
    let queryBy: [String]
    let parameters: JSONObject

    /// Candidates per query word, and the hit count below which typos are tried: both high enough
    /// that Typesense never stops expanding a prefix or a typo early. Raise with the vocabulary.
    static let candidateLimit = 100_000
    static let exhaustive: JSONObject = [
        "max_candidates": JSON(candidateLimit),
        "typo_tokens_threshold": JSON(candidateLimit),
        "drop_tokens_threshold": 0,
        "split_join_tokens": "off",
        "enable_overrides": false,
    ]

    /// The parameters `exhaustive` sets that `SearchCounts.fast` leaves to Typesense.
    static let expansionBounds = ["max_candidates", "typo_tokens_threshold"]

    init(_ search: SearchParameters, settings: IndexSettings, fields: Set<String>, counts: SearchCounts = .exact) {
        // A query without a word (by the engine's normaliser) matches every record, as `*` does.
        // The text itself goes as typed: documents hold the raw text and Typesense's tokenizer
        // (no `token_separators`) joins "don't" into one token on both sides, where sending the
        // engine's words ("don t") would miss it.
        hasWords = !Normalizer.words(of: search.query).isEmpty
        q = hasWords ? search.query : "*"
        holdsNoWord = QueryWords.holdsNoWord(search.query)

        var queryBy: [String] = [], ranks: [Int] = []
        let layout = SearchableLayout(settings: settings)
        if layout.isDynamic {
            // Every top-level attribute is searched, at equal rank (record order is per record).
            queryBy = fields.filter { $0.hasPrefix("s_") }.sorted()
            ranks = queryBy.map { _ in 0 }
        } else {
            let restricted = search.restrictSearchableAttributes.map(Set.init)
            for (slot, path) in layout.names.enumerated() {
                let field = FieldNames.searchable(path)
                guard fields.contains(field), !queryBy.contains(field), restricted?.contains(path) ?? true else { continue }
                queryBy.append(field)
                ranks.append(layout.ranks[slot])
            }
        }
        self.queryBy = queryBy

        var p = JSONObject()
        p["q"] = .string(q)
        if !queryBy.isEmpty {
            p["query_by"] = .string(queryBy.joined(separator: ","))
            if let worst = ranks.max(), worst > 0 {
                // Typesense ranks a higher weight first and keeps weights within 0–15.
                p["query_by_weights"] = .string(ranks.map { String(max(1, 15 - $0 * 15 / (worst + 1))) }.joined(separator: ","))
            }
        }
        let typos = search.typoTolerance == .disabled ? 0 : 2
        let noTypos = Set(settings.disableTypoToleranceOnAttributes.map(FieldNames.searchable))
        let perField = queryBy.map { noTypos.contains($0) ? 0 : typos }
        p["num_typos"] = Set(perField).count > 1 ? .string(perField.map(String.init).joined(separator: ",")) : JSON(typos)
        p["min_len_1typo"] = JSON(search.minWordSizefor1Typo)
        p["min_len_2typo"] = JSON(search.minWordSizefor2Typos)
        // prefixLast: the last word is a prefix unless a space or symbol ends it, as in the engine.
        let endsInWord = search.query.unicodeScalars.last.map(Self.isWordScalar) ?? false
        p["prefix"] = .bool(search.queryType != .prefixNone && endsInWord)
        for (key, value) in Self.exhaustive where counts == .exact || !Self.expansionBounds.contains(key) { p[key] = value }
        // `min`: Typesense's own rule with threshold 1 (typos are tried only when no hit has fewer)
        // is the engine's "fewest typos only" when hits are counted by their cheapest word choice.
        if search.typoTolerance == .min { p["typo_tokens_threshold"] = 1 }
        parameters = p
    }

    /// Letters, digits and marks make words, as the engine's normaliser keeps them.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
    }
}
