/// How close together are the query words in one document?
///
/// For each pair of consecutive query words, the smallest distance between them inside one attribute
/// (a pair met in reverse order counts one more), each pair capped at 8, summed. One pass over the
/// document's tokens, which are in reading order: every pair is seen at its later token, against the
/// latest earlier occurrence of the other word, so remembering one position per word is enough.
struct ProximityScorer {
    static let cap = 8

    let positions: DocumentPositions
    let words: [MatchedTerms]
    /// Per word: its single run of terms, when it has exactly one (prefix without typos: a range check).
    private let singleRuns: [Range<Int>?]
    private var last: [Int]
    private var best: [Int]

    init(segment: Segment, words: [MatchedTerms]) {
        positions = segment.positions
        self.words = words
        singleRuns = words.map { $0.runs.count == 1 ? $0.runs[0].terms : ($0.runs.isEmpty ? 0..<0 : nil) }
        last = Array(repeating: -1, count: words.count)
        best = Array(repeating: Self.cap, count: max(words.count - 1, 0))
    }

    mutating func proximity(of ordinal: Int) -> Int {
        let count = words.count
        guard count > 1 else { return 0 }
        for w in 0..<count { last[w] = -1 }
        for w in 0..<count - 1 { best[w] = Self.cap }
        var slot = -1
        let disabled = SegmentBuilder.typoDisabledBit
        for t in positions.range(of: ordinal) {
            let term = Int(positions.terms[t])
            let raw = positions.locations[t]
            let location = raw & ~disabled
            let tokenSlot = Location.slot(location), p = Location.position(location)
            if tokenSlot != slot {
                slot = tokenSlot
                for w in 0..<count { last[w] = -1 }
            }
            var matched: UInt64 = 0
            for w in 0..<count {
                let typos: Int
                if let run = singleRuns[w] {
                    guard run.contains(term) else { continue }
                    typos = words[w].runs[0].typos
                } else {
                    guard let found = words[w].typos(of: term) else { continue }
                    typos = found
                }
                if typos > 0 && raw & disabled != 0 { continue }
                matched |= 1 << UInt64(w)
                if w > 0, last[w - 1] >= 0 {
                    best[w - 1] = min(best[w - 1], max(p - last[w - 1], 1))
                }
                if w + 1 < count, last[w + 1] >= 0 {
                    best[w] = min(best[w], p - last[w + 1] + 1)
                }
            }
            // Record after pairing, so a token matching two words is not paired with itself.
            while matched != 0 {
                let w = matched.trailingZeroBitCount
                last[w] = p
                matched &= matched - 1
            }
        }
        return best.reduce(0, +)
    }
}
