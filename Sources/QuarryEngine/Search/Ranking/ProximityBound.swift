/// What is the closest proximity any document of a segment can reach for a query?
///
/// Per pair of consecutive query words, the smallest distance at which any term of one word ever stands
/// next to any term starting like the other, read from `NeighborTables` on the side with few terms (the
/// full word of `samsung t`, not the thousands of t-words); at least 1 per pair, as `SegmentRanker`
/// assumed before. Only bytes are compared, so the bound is loose but never above a document's value.
enum ProximityBound {
    /// A side with more terms than this is not read (typo-tolerant words have a handful).
    static let termLimit = 16
    /// `budget`: postings whose rows may be computed now (rows are kept, so only first uses pay); a pair
    /// whose rows would cost more gets the plain bound of 1.
    static func minimum(segment: Segment, words: [MatchedTerms], budget: Int) -> Int {
        guard words.count > 1 else { return 0 }
        var budget = budget
        var total = 0
        for w in 1..<words.count {
            // Rows of the earlier word: `after` is in-order distance, `before` reverse; of the later word, the opposite.
            let pair = bound(segment, rowsOf: words[w - 1], bytesOf: words[w], inOrder: 0, reverse: 256, budget: &budget)
                ?? bound(segment, rowsOf: words[w], bytesOf: words[w - 1], inOrder: 256, reverse: 0, budget: &budget)
            total += pair ?? 1
        }
        return total
    }

    private static func bound(_ segment: Segment, rowsOf side: MatchedTerms, bytesOf other: MatchedTerms,
                              inOrder: Int, reverse: Int, budget: inout Int) -> Int? {
        let count = side.runs.reduce(0) { $0 + $1.terms.count }
        guard count > 0, count <= termLimit, let bytes = firstBytes(other, segment.dictionary) else { return nil }
        var cost = 0
        for run in side.runs {
            for t in run.terms where !segment.neighbors.isCached(t) { cost += segment.postings.count(of: t) }
        }
        guard cost <= budget else { return nil }
        budget -= cost
        var best = ProximityScorer.cap
        for run in side.runs {
            for t in run.terms {
                let row = segment.neighbors.row(t, segment: segment)
                for b in bytes {
                    best = min(best, max(Int(row[inOrder + b]), 1), Int(row[reverse + b]) + 1)
                }
            }
        }
        return max(best, 1)
    }

    /// Every first byte of the word's terms (a sorted run spans a range of first bytes).
    private static func firstBytes(_ word: MatchedTerms, _ dictionary: TermDictionary) -> [Int]? {
        var present = [Bool](repeating: false, count: 256)
        for run in word.runs where !run.terms.isEmpty {
            var lo = run.terms.lowerBound
            while lo < run.terms.upperBound && dictionary.length(lo) == 0 { lo += 1 }
            guard lo < run.terms.upperBound else { continue }
            let hi = run.terms.upperBound - 1
            for b in Int(dictionary.byte(lo, at: 0))...Int(dictionary.byte(hi, at: 0)) { present[b] = true }
        }
        let bytes = (0..<256).filter { present[$0] }
        return bytes.isEmpty ? nil : bytes
    }
}
