/// Which documents of one segment match every query word, and what do their postings already say
/// about typos, exactness and attribute?
///
/// Words are processed from the fewest postings to the most. Per document a stamp counts the words
/// matched so far (dense scratch, one byte per document, no hashing); the first processed word's
/// documents are the only possible candidates. Runs are visited in ascending typo order so the first
/// posting seen for a (word, document) pair carries its fewest typos.
struct Candidates {
    var ordinals: [UInt32] = []
    var typos: [UInt8] = []
    var exact: [UInt8] = []
    /// Best `AttributeScore` over all words (flag bit cleared).
    var attribute: [UInt32] = []

    var count: Int { ordinals.count }

    static func collect(segment: Segment, dead: Bitset, words: [MatchedTerms]) -> Candidates {
        var result = Candidates()
        guard !words.isEmpty else { return result }
        let postings = segment.postings
        func size(_ m: MatchedTerms) -> Int {
            m.runs.reduce(0) { $0 + Int(postings.offsets[$1.terms.upperBound] - postings.offsets[$1.terms.lowerBound]) }
        }
        let order = words.indices.sorted { size(words[$0]) < size(words[$1]) }
        if size(words[order[0]]) == 0 { return result }
        let n = segment.count
        // Only `stamp` needs zeroing: the others are written when a document is first stamped.
        let stamp = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n)
        stamp.initialize(repeating: 0)
        let typo = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n)
        let exact = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n)
        let attribute = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: n)
        defer { stamp.deallocate(); typo.deallocate(); exact.deallocate(); attribute.deallocate() }
        var first: [UInt32] = []
        let flag = AttributeScore.typoDisabledFlag
        postings.docs.withUnsafeBufferPointer { docs in
            postings.scores.withUnsafeBufferPointer { scores in
                for (p, w) in order.enumerated() {
                    let seen = UInt8(p), done = UInt8(p + 1)
                    let runs = words[w].runs.sorted { $0.typos < $1.typos }
                    for run in runs {
                        let t = UInt8(run.typos)
                        for i in Int(postings.offsets[run.terms.lowerBound])..<Int(postings.offsets[run.terms.upperBound]) {
                            let s = scores[i]
                            if t > 0 && s & flag != 0 { continue }
                            let d = Int(docs[i])
                            let st = stamp[d]
                            if st == seen {
                                stamp[d] = done
                                if p == 0 {
                                    first.append(UInt32(d))
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
                        for i in postings.range(of: e) where stamp[Int(docs[i])] == done { exact[Int(docs[i])] += 1 }
                    }
                }
            }
        }
        let all = UInt8(words.count)
        // Ordinal order matters (it is the static order); a linear scan beats sorting a large list.
        if first.count > n / 32 {
            first.removeAll(keepingCapacity: true)
            for d in 0..<n where stamp[d] == all { first.append(UInt32(d)) }
        } else {
            first.sort()
        }
        result.ordinals.reserveCapacity(first.count)
        for d in first where stamp[Int(d)] == all && !dead.contains(Int(d)) {
            result.ordinals.append(d)
            result.typos.append(typo[Int(d)])
            result.exact.append(exact[Int(d)])
            result.attribute.append(attribute[Int(d)])
        }
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
