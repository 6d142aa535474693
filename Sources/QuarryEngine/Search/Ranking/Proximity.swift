import QuarryText
/// How close together are the query words in one document?
///
/// For each pair of consecutive query words, the smallest distance between them inside one attribute
/// (a pair met in reverse order counts one more), each pair capped at 8, summed. One pass over the
/// document's tokens, which are in reading order: every pair is seen at its later token, against the
/// latest earlier occurrence of the other word, so remembering one position per word is enough.
/// This runs for every candidate that might still reach the page, so it works on raw buffers.
struct ProximityScorer {
    static let cap = 8

    let positions: DocumentPositions
    let words: [MatchedTerms]
    /// Per word three entries: the bounds and typos of its single run of terms (lower bound -1 when
    /// it has several runs and needs a binary search).
    private let runs: [Int]
    /// Bit per token code: set when some word matches the code's term. Most tokens (descriptions) match
    /// no word and are skipped on one test of a small bitset, without loading their term.
    private let relevant: [UInt64]

    init(segment: Segment, words: [MatchedTerms]) {
        positions = segment.positions
        self.words = words
        let codes = segment.positions.codes
        var relevant = [UInt64](repeating: 0, count: (codes.count + 63) >> 6)
        for word in words {
            for run in word.runs {
                for term in run.terms where term < codes.count && codes[term] != .max {
                    relevant[Int(codes[term]) >> 6] |= 1 << UInt64(codes[term] & 63)
                }
            }
        }
        self.relevant = relevant
        runs = words.flatMap { word -> [Int] in
            switch word.runs.count {
            case 0: [0, 0, 0]
            case 1: [word.runs[0].terms.lowerBound, word.runs[0].terms.upperBound, word.runs[0].typos]
            default: [-1, 0, 0]
            }
        }
    }

    /// How one word matched a document, gathered during the same pass (see `Candidates`' token strategy).
    struct WordMatch {
        var typos = Int.max
        var score = UInt16.max
        var exact = false
        /// Attribute rank per slot (`AttributeScore` high bits) and whether position counts.
        let ranks: [UInt16]
        let ordered: [Bool]

        init(layout: SearchableLayout) {
            var ranks = [UInt16](repeating: 0, count: 32), ordered = [Bool](repeating: true, count: 32)
            for slot in 0..<32 { ranks[slot] = UInt16(min(layout.rank(ofSlot: slot), 31)); ordered[slot] = layout.isOrdered(slot: slot) }
            self.ranks = ranks
            self.ordered = ordered
        }
    }

    func proximity(of ordinal: Int) -> Int {
        var none: WordMatch? = nil
        return proximity(of: ordinal, target: -1, match: &none)
    }

    /// Proximity, and in `match` how word `target` matched (typos `Int.max` when it did not).
    func proximity(of ordinal: Int, target: Int, match: inout WordMatch?) -> Int {
        let count = words.count
        // A lone word has no pairs, but a `target` match still needs its tokens read.
        guard count > 1 || (target >= 0 && match != nil) else { return 0 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) { scratch in
            let last = scratch.baseAddress.unsafelyUnwrapped, best = last + count
            for w in 0..<count { last[w] = -1; best[w] = Self.cap }
            positions.withTokens { tokens in
                runs.withUnsafeBufferPointer { runs in
                    relevant.withUnsafeBufferPointer { relevant in
                        scan(tokens, ordinal, runs: runs, relevant: relevant, last: last, best: best, target: target, match: &match)
                    }
                }
            }
            var total = 0
            for w in 0..<count - 1 { total += best[w] }
            return total
        }
    }

    private func scan(_ tokens: TokenView, _ ordinal: Int, runs: UnsafeBufferPointer<Int>, relevant: UnsafeBufferPointer<UInt64>,
                      last: UnsafeMutablePointer<Int>, best: UnsafeMutablePointer<Int>, target: Int, match: inout WordMatch?) {
        let count = words.count
        let disabled = SegmentBuilder.typoDisabledBit
        var slot = -1
        tokens.forEachCode(ordinal) { code, raw in
            let location = raw & ~disabled
            let tokenSlot = Location.slot(location)
            if tokenSlot != slot {
                slot = tokenSlot
                for w in 0..<count { last[w] = -1 }
            }
            guard code >> 6 < relevant.count, relevant[code >> 6] & (1 << UInt64(code & 63)) != 0 else { return }
            let term = Int(tokens.terms[code])
            let p = Location.position(location)
            var matched: UInt64 = 0
            for w in 0..<count {
                let typos: Int
                let lo = runs[3 * w]
                if lo >= 0 {
                    guard term >= lo && term < runs[3 * w + 1] else { continue }
                    typos = runs[3 * w + 2]
                } else {
                    guard let found = words[w].typos(of: term) else { continue }
                    typos = found
                }
                if typos > 0 && raw & disabled != 0 { continue }
                matched |= 1 << UInt64(w)
                if w == target, var m = match {
                    m.typos = min(m.typos, typos)
                    let slot = Location.slot(location)
                    m.score = min(m.score, m.ranks[slot] << 10 | (m.ordered[slot] ? UInt16(p) : 0))
                    if term == words[w].exactTerm { m.exact = true }
                    match = m
                }
                if w > 0, last[w - 1] >= 0 { best[w - 1] = min(best[w - 1], max(p - last[w - 1], 1)) }
                if w + 1 < count, last[w + 1] >= 0 { best[w] = min(best[w], p - last[w + 1] + 1) }
            }
            // Record after pairing, so a token matching two words is not paired with itself.
            while matched != 0 {
                last[matched.trailingZeroBitCount] = p
                matched &= matched - 1
            }
        }
    }
}
