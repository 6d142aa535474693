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
    /// Per word: the bounds and typos of its single run of terms, or `lo = -1` when it has several.
    private let runLo: [Int], runHi: [Int], runTypos: [Int]

    init(segment: Segment, words: [MatchedTerms]) {
        positions = segment.positions
        self.words = words
        runLo = words.map { $0.runs.count == 1 ? $0.runs[0].terms.lowerBound : ($0.runs.isEmpty ? 0 : -1) }
        runHi = words.map { $0.runs.count == 1 ? $0.runs[0].terms.upperBound : 0 }
        runTypos = words.map { $0.runs.count == 1 ? $0.runs[0].typos : 0 }
    }

    func proximity(of ordinal: Int) -> Int {
        let count = words.count
        guard count > 1 else { return 0 }
        let range = positions.range(of: ordinal)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) { scratch in
            let last = scratch.baseAddress.unsafelyUnwrapped, best = last + count
            for w in 0..<count { last[w] = -1; best[w] = Self.cap }
            var slot = -1
            let disabled = SegmentBuilder.typoDisabledBit
            positions.terms.withUnsafeBufferPointer { terms in
                positions.locations.withUnsafeBufferPointer { locations in
                    runLo.withUnsafeBufferPointer { runLo in
                        runHi.withUnsafeBufferPointer { runHi in
                            runTypos.withUnsafeBufferPointer { runTypos in
                                for t in range {
                                    let term = Int(terms[t])
                                    let raw = locations[t]
                                    let location = raw & ~disabled
                                    let tokenSlot = Location.slot(location), p = Location.position(location)
                                    if tokenSlot != slot {
                                        slot = tokenSlot
                                        for w in 0..<count { last[w] = -1 }
                                    }
                                    var matched: UInt64 = 0
                                    for w in 0..<count {
                                        let typos: Int
                                        let lo = runLo[w]
                                        if lo >= 0 {
                                            guard term >= lo && term < runHi[w] else { continue }
                                            typos = runTypos[w]
                                        } else {
                                            guard let found = words[w].typos(of: term) else { continue }
                                            typos = found
                                        }
                                        if typos > 0 && raw & disabled != 0 { continue }
                                        matched |= 1 << UInt64(w)
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
                    }
                }
            }
            var total = 0
            for w in 0..<count - 1 { total += best[w] }
            return total
        }
    }
}
