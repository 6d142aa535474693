/// Which documents hold a word starting with a given prefix of one to three bytes?
///
/// As-you-type queries end in short prefixes (`sony c`) whose terms have millions of postings, so
/// matching them by postings or by reading every candidate's tokens costs milliseconds per keystroke.
/// For each such prefix with many postings the segment keeps its documents, each graded by the best
/// score it can have (`DocumentLevels`, n/4 bytes), so `Candidates` intersects with one load per
/// survivor and leaves that word's attribute and exactness to the ranker, which bounds them with the
/// grade and reads them from tokens only for documents that can reach the page.
/// Built from postings when a segment is made, only for large segments; saved with it, and read in
/// place when it is opened, so only the sets of prefixes someone types are resident.
struct PrefixSets: Sendable {
    struct Entry: Sendable {
        /// Per document: 0 without a posting in the prefix's terms; 3 when one scores `lowestScore`;
        /// 2 when one has the best attribute rank any posting has (it scores at least one more, a later
        /// position); else 1, scoring at least `otherScore`. This keeps ranking's bound tight for most documents.
        let levels: DocumentLevels
        /// The lowest `AttributeScore` (flag cleared) of any of those postings: a bound for ranking.
        let lowestScore: UInt16
        let otherScore: UInt16

        @inline(__always)
        func contains(_ d: Int) -> Bool { levels[d] != 0 }

        /// No document `d` scores better on the prefix than this.
        @inline(__always)
        func floor(_ d: Int) -> UInt16 {
            switch levels[d] {
            case 3: lowestScore
            case 2: lowestScore == .max ? lowestScore : lowestScore + 1
            default: otherScore
            }
        }
    }

    /// An entry while sets are built: children's sets are unions, which plain bitsets make word by word.
    private struct Draft {
        let documents: [UInt64], prime: [UInt64], best: [UInt64]
        let lowestScore: UInt16, otherScore: UInt16

        var entry: Entry {
            Entry(levels: DocumentLevels(outer: documents, middle: prime, inner: best), lowestScore: lowestScore, otherScore: otherScore)
        }
    }

    static let empty = PrefixSets(entries: [:])

    /// Keyed by the prefix's term range: equal ranges mean equal terms, hence equal documents.
    let entries: [Range<Int>: Entry]

    /// Longest prefix kept: as-you-type keystrokes pay most for the first three letters of a word.
    static let maximumLength = 3

    /// Segments smaller than this are cheap to search without it.
    static let minimumDocuments = 50_000

    /// The set for exactly these terms, if kept.
    func documents(for terms: Range<Int>) -> Entry? { entries.isEmpty ? nil : entries[terms] }

    init(entries: [Range<Int>: Entry]) { self.entries = entries }

    /// `minimumDocuments`/`minimumPostings` are parameters so tests can build sets on small segments.
    /// The first letters' sets are independent, so they are built in two halves on two threads.
    init(dictionary: TermDictionary, postings: Postings, documents n: Int,
         minimumDocuments: Int = PrefixSets.minimumDocuments, minimumPostings: Int? = nil) {
        guard n >= minimumDocuments, dictionary.count > 0 else { self.init(entries: [:]); return }
        // A set pays when the postings it replaces outnumber n/8 (about its size in bytes).
        let threshold = minimumPostings ?? max(1, n / 8)
        var roots: [Range<Int>] = []
        var lo = 0
        if dictionary.length(lo) == 0 { lo += 1 }
        while lo < dictionary.count {
            let hi = dictionary.childEnd(in: lo..<dictionary.count, depth: 0)
            if Self.postingCount(lo..<hi, postings) >= threshold { roots.append(lo..<hi) }
            lo = hi
        }
        let total = roots.reduce(0) { $0 + Self.postingCount($1, postings) }
        var half = 0, split = 0
        while split < roots.count && half * 2 < total {
            half += Self.postingCount(roots[split], postings)
            split += 1
        }
        let first = roots[..<split], second = roots[split...]
        let (a, b) = Parallel.both({ Self.entries(first, dictionary: dictionary, postings: postings, documents: n, threshold: threshold) },
                                   { Self.entries(second, dictionary: dictionary, postings: postings, documents: n, threshold: threshold) })
        self.init(entries: a.merging(b) { old, _ in old })
    }

    private static func postingCount(_ terms: Range<Int>, _ postings: Postings) -> Int {
        Int(postings.offsets[terms.upperBound] - postings.offsets[terms.lowerBound])
    }

    /// The sets of the prefixes `roots` (runs of terms sharing their first byte) and of their longer prefixes.
    private static func entries(_ roots: ArraySlice<Range<Int>>, dictionary: TermDictionary, postings: Postings,
                                documents n: Int, threshold: Int) -> [Range<Int>: Entry] {
        var entries: [Range<Int>: Entry] = [:]
        // Terms sorted bytewise: the terms sharing a prefix are one contiguous run, split by their next
        // byte. A prefix has no more postings than its parent, so only qualifying runs are split further,
        // and each set is made from its children's sets (bitwise) plus the postings of the terms no child
        // set holds: every posting is decoded once, at the longest prefix that holds it.
        func make(_ terms: Range<Int>, length: Int) -> Draft {
            var children: [Draft] = [], direct: [Range<Int>] = []
            var lo = terms.lowerBound
            // The term equal to the shared prefix sorts first and has no byte at `length`.
            if dictionary.length(lo) == length {
                direct.append(lo..<lo + 1)
                lo += 1
            }
            while lo < terms.upperBound {
                let hi = dictionary.childEnd(in: lo..<terms.upperBound, depth: length)
                if length < maximumLength && postingCount(lo..<hi, postings) >= threshold {
                    let child = make(lo..<hi, length: length + 1)
                    entries[lo..<hi] = child.entry
                    children.append(child)
                } else {
                    direct.append(lo..<hi)
                }
                lo = hi
            }
            return entry(children: children, direct: direct, postings: postings, documents: n)
        }
        for root in roots {
            entries[root] = make(root, length: 1).entry
            // Postings read in place (a large merge's, from its spill file) are let go of once read.
            postings.bytes.releaseResidentPages(Int(postings.starts[root.lowerBound])..<Int(postings.starts[root.upperBound]))
        }
        return entries
    }

    /// The set of a prefix from its children's sets and the postings of `direct` term ranges.
    private static func entry(children: [Draft], direct: [Range<Int>], postings: Postings, documents n: Int) -> Draft {
        let flag = AttributeScore.typoDisabledFlag
        var lowest = children.reduce(UInt16.max) { min($0, $1.lowestScore) }
        for terms in direct {
            for term in terms { lowest = min(lowest, postings.lowestScores[term]) }
        }
        let bestRank = AttributeScore.rank(lowest)
        var words = [UInt64](repeating: 0, count: (n + 63) >> 6), prime = words, best = words
        var other = UInt16.max
        func union(_ target: inout [UInt64], _ source: [UInt64]) {
            target.withUnsafeMutableBufferPointer { target in
                for (i, word) in source.prefix(target.count).enumerated() { target[i] |= word }
            }
        }
        // A child whose best rank is the prefix's shares its prime and its other score; one ranked worse
        // holds only "other" postings, the best of which is its lowest.
        for child in children {
            union(&words, child.documents)
            if AttributeScore.rank(child.lowestScore) == bestRank {
                union(&prime, child.prime)
                other = min(other, child.otherScore)
            } else {
                other = min(other, child.lowestScore)
            }
            if child.lowestScore == lowest { union(&best, child.best) }
        }
        postings.withView { view in
            words.withUnsafeMutableBufferPointer { words in
                prime.withUnsafeMutableBufferPointer { prime in
                    best.withUnsafeMutableBufferPointer { best in
                        for terms in direct {
                            for term in terms {
                                view.forEach(term) { d, raw in
                                    guard d < n else { return }
                                    let score = raw & ~flag, bit: UInt64 = 1 << UInt64(d & 63)
                                    words[d >> 6] |= bit
                                    if score == lowest { best[d >> 6] |= bit }
                                    if AttributeScore.rank(score) == bestRank {
                                        prime[d >> 6] |= bit
                                    } else {
                                        other = min(other, score)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Draft(documents: words, prime: prime, best: best, lowestScore: lowest, otherScore: other)
    }
}
