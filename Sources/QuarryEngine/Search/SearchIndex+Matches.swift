import QuarrySearchContract
import QuarryText

/// Which documents match a query and filters, unranked: what `browse` pages through.
///
/// The same matching as `search` (typo tolerance, prefix, filters, facet filters, geo bounds), but
/// no ranking, distinct or pagination limit: every match, as one bitset per segment.
extension SearchIndex {
    func matches(_ parameters: SearchParameters) throws(BackendError) -> DocumentMatches {
        let words = QueryWords.parse(parameters)
        let plan = try FilterPlan(index: self, refinements: parameters.refinements)
        var candidates: [Candidates]? = nil
        if !words.isEmpty {
            var found: [Candidates] = []
            for (s, segment) in segments.enumerated() {
                let terms = words.map { TypoMatcher(dictionary: segment.dictionary).match($0) }
                // Not deferrable: a deferred prefix word is only completed by the packed ranker.
                var collected = Candidates.collect(segment: segment, dead: plan.universeDead[s], words: terms, layout: layout,
                                                   proximity: nil, deferrable: false)
                if let restricted = parameters.restrictSearchableAttributes {
                    restrict(&collected, segment: s, words: terms, to: restricted, dead: plan.universeDead[s])
                }
                found.append(collected)
            }
            applyTypoMode(parameters.typoTolerance, to: &found, dead: plan.universeDead)
            candidates = found
        }
        var bits: [[UInt64]] = []
        for (s, segment) in segments.enumerated() {
            var set = [UInt64](repeating: 0, count: (segment.count + 63) >> 6)
            let dead = plan.hitDead[s]
            if let candidates {
                // A sparse list skips `dead` in `forEach`, and holds only what `universeDead` let through.
                candidates[s].forEach(dead: dead) { d in
                    if !dead.contains(d) { set[d >> 6] |= 1 << UInt64(d & 63) }
                    return true
                }
            } else {
                for d in 0..<segment.count where !dead.contains(d) { set[d >> 6] |= 1 << UInt64(d & 63) }
            }
            bits.append(set)
        }
        return DocumentMatches(segments: segments, bits: bits)
    }
}

/// A set of documents by docID, for checking the rows of a store scan against a search's matches.
struct DocumentMatches: Sendable {
    let segments: [Segment]
    let bits: [[UInt64]]

    var count: Int { bits.reduce(0) { $0 + $1.reduce(0) { $0 + $1.nonzeroBitCount } } }

    func contains(_ docID: DocID) -> Bool {
        for (s, segment) in segments.enumerated() {
            guard let d = segment.ordinal(of: docID) else { continue }
            if bits[s][d >> 6] & (1 << UInt64(d & 63)) != 0 { return true }
        }
        return false
    }
}
