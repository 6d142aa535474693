/// Which documents of one segment match every query word, and what do their postings already say
/// about typos, exactness and attribute?
///
/// Words are processed from the fewest postings to the most. Per document a stamp counts the words
/// matched so far (dense scratch, one byte per document, no hashing); the first processed word's
/// documents are the only possible candidates. Runs are visited in ascending typo order so the first
/// posting seen for a (word, document) pair carries its fewest typos. Output is in ordinal order.
struct Candidates {
    var ordinals: [UInt32] = []
    var typos: [UInt8] = []
    var exact: [UInt8] = []
    /// Best `AttributeScore` over all words (flag bit cleared).
    var attribute: [UInt16] = []

    var count: Int { ordinals.count }

    static func collect(segment: Segment, dead: Bitset, words: [MatchedTerms]) -> Candidates {
        guard !words.isEmpty else { return Candidates() }
        let postings = segment.postings
        func size(_ m: MatchedTerms) -> Int {
            m.runs.reduce(0) { $0 + Int(postings.offsets[$1.terms.upperBound] - postings.offsets[$1.terms.lowerBound]) }
        }
        let order = words.indices.sorted { size(words[$0]) < size(words[$1]) }
        let firstSize = size(words[order[0]])
        if firstSize == 0 { return Candidates() }
        let n = segment.count
        // Only `stamp` needs zeroing: the others are written when a document is first stamped.
        let stamp = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n)
        stamp.initialize(repeating: 0)
        let typo = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n)
        let exact = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n)
        let attribute = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: n)
        let first = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: min(firstSize, n))
        defer { stamp.deallocate(); typo.deallocate(); exact.deallocate(); attribute.deallocate(); first.deallocate() }
        var firstCount = 0
        let flag = AttributeScore.typoDisabledFlag
        postings.docs.withUnsafeBufferPointer { docs in
            postings.scores.withUnsafeBufferPointer { scores in
                postings.offsets.withUnsafeBufferPointer { offsets in
                    for (p, w) in order.enumerated() {
                        let seen = UInt8(p), done = UInt8(p + 1)
                        for run in words[w].runs.sorted(by: { $0.typos < $1.typos }) {
                            let t = UInt8(run.typos)
                            for i in Int(offsets[run.terms.lowerBound])..<Int(offsets[run.terms.upperBound]) {
                                let s = scores[i]
                                if t > 0 && s & flag != 0 { continue }
                                let d = Int(docs[i])
                                let st = stamp[d]
                                if st == seen {
                                    stamp[d] = done
                                    if p == 0 {
                                        first[firstCount] = UInt32(d)
                                        firstCount += 1
                                        typo[d] = t
                                        exact[d] = 0
                                        attribute[d] = s & ~flag
                                    } else {
                                        typo[d] &+= t
                                        attribute[d] = min(attribute[d], s & ~flag)
                                    }
                                } else if st == done {
                                    attribute[d] = min(attribute[d], s & ~flag)
                                }
                            }
                        }
                        if let e = words[w].exactTerm {
                            for i in Int(offsets[e])..<Int(offsets[e + 1]) where stamp[Int(docs[i])] == done {
                                exact[Int(docs[i])] += 1
                            }
                        }
                    }
                }
            }
        }
        let all = UInt8(words.count)
        // Ordinal order matters (it is the static order); a linear scan beats sorting a large list.
        var matched: [UInt32]
        if firstCount > n / 32 {
            matched = []
            matched.reserveCapacity(firstCount)
            for d in 0..<n where stamp[d] == all { matched.append(UInt32(d)) }
        } else {
            matched = first[0..<firstCount].filter { stamp[Int($0)] == all }
            matched.sort()
        }
        if dead.count > 0 { matched.removeAll { dead.contains(Int($0)) } }
        var result = Candidates()
        result.ordinals = matched
        result.typos = matched.map { typo[Int($0)] }
        result.exact = matched.map { exact[Int($0)] }
        result.attribute = matched.map { attribute[Int($0)] }
        return result
    }

    /// Keeps the candidates satisfying `keep(index)`.
    mutating func filter(_ keep: (Int) -> Bool) {
        var out = Candidates()
        for i in 0..<count where keep(i) {
            out.ordinals.append(ordinals[i]); out.typos.append(typos[i])
            out.exact.append(exact[i]); out.attribute.append(attribute[i])
        }
        self = out
    }
}
