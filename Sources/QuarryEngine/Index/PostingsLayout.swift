import QuarryText
/// Postings laid out from a builder's tokens, two halves of the documents at once.
///
/// Placing each (term, document) pair is a scattered write into arrays of tens of millions of
/// entries: at 1M records that took 1.9 s on one thread, the longest step of an import after its
/// input. From `splitFrom` documents on, each half counts its own terms, then writes its postings
/// where they go: a term's run holds the first half's documents, then the second's, so each run
/// stays ascending.
enum PostingsLayout {
    static let splitFrom = 1 << 16

    /// The postings of `tokens`, their bytes written into `spill` when given.
    static func postings(_ tokens: SegmentTokens, layout: SearchableLayout, splitFrom: Int = splitFrom,
                         spill: SpillFile? = nil) -> Postings {
        let documents = tokens.documentCount, termCount = tokens.termCount
        let halves = documents >= splitFrom ? [0..<documents / 2, documents / 2..<documents] : [0..<documents]
        let counts: [[UInt32]]
        if halves.count == 2 {
            let (first, second) = Parallel.both({ count(tokens, halves[0]) }, { count(tokens, halves[1]) })
            counts = [first, second]
        } else {
            counts = [count(tokens, halves[0])]
        }
        var offsets = [UInt32](repeating: 0, count: termCount + 1)
        for term in 0..<termCount {
            offsets[Int(tokens.sortedTerm[term]) + 1] = counts.reduce(0) { $0 + $1[term] }
        }
        for sorted in 0..<termCount { offsets[sorted + 1] += offsets[sorted] }
        let first = (0..<termCount).map { offsets[Int(tokens.sortedTerm[$0])] }
        let cursors = halves.count == 2 ? [first, (0..<termCount).map { first[$0] + counts[0][$0] }] : [first]

        let total = Int(offsets[termCount])
        var scores: [UInt16] = []
        let docs = [UInt32](unsafeUninitializedCapacity: total) { docs, docsCount in
            scores = [UInt16](unsafeUninitializedCapacity: total) { scores, scoresCount in
                let output = Output(docs: docs.baseAddress, scores: scores.baseAddress)
                if halves.count == 2 {
                    _ = Parallel.both({ place(tokens, halves[0], from: cursors[0], into: output, layout: layout) },
                                      { place(tokens, halves[1], from: cursors[1], into: output, layout: layout) })
                } else {
                    place(tokens, halves[0], from: cursors[0], into: output, layout: layout)
                }
                scoresCount = total
            }
            docsCount = total
        }
        return Postings(offsets: offsets, docs: docs, scores: scores, spill: spill)
    }

    /// Where postings are written. @unchecked: the halves write disjoint entries, and the arrays are
    /// read only once both are done.
    private struct Output: @unchecked Sendable {
        let docs: UnsafeMutablePointer<UInt32>?
        let scores: UnsafeMutablePointer<UInt16>?
    }

    /// Per interned term, how many of `ordinals` hold it.
    private static func count(_ tokens: SegmentTokens, _ ordinals: Range<Int>) -> [UInt32] {
        var lastDoc = [Int32](repeating: -1, count: tokens.termCount)
        var counts = [UInt32](repeating: 0, count: tokens.termCount)
        tokens.terms.withUnsafeBufferPointer { terms in
            lastDoc.withUnsafeMutableBufferPointer { lastDoc in
                counts.withUnsafeMutableBufferPointer { counts in
                    tokens.forEachDocument(in: ordinals) { ordinal, range in
                        for t in range {
                            let term = Int(terms[t])
                            if lastDoc[term] != Int32(ordinal) { lastDoc[term] = Int32(ordinal); counts[term] += 1 }
                        }
                    }
                }
            }
        }
        return counts
    }

    /// Writes the postings of `ordinals`, each term's next one at its cursor, with the best score of
    /// the term's tokens in the document.
    private static func place(_ tokens: SegmentTokens, _ ordinals: Range<Int>, from start: [UInt32], into output: Output,
                              layout: SearchableLayout) {
        guard let docs = output.docs, let scores = output.scores else { return }
        let termCount = tokens.termCount
        // A token's score by slot: the attribute's rank, and its position only where order matters.
        let slots = 32
        let slotScore = (0..<slots).map { AttributeScore.make(rank: layout.rank(ofSlot: $0), position: 0, ordered: false) }
        let slotPosition = (0..<slots).map { layout.isOrdered(slot: $0) ? UInt16(Location.maxPosition) : 0 }
        let flag = AttributeScore.typoDisabledFlag
        var lastDoc = [Int32](repeating: -1, count: termCount)
        var cursor = start
        var entry = [UInt32](repeating: 0, count: termCount)
        tokens.terms.withUnsafeBufferPointer { terms in
            tokens.locations.withUnsafeBufferPointer { locations in
                lastDoc.withUnsafeMutableBufferPointer { lastDoc in
                    cursor.withUnsafeMutableBufferPointer { cursor in
                        entry.withUnsafeMutableBufferPointer { entry in
                            tokens.forEachDocument(in: ordinals) { ordinal, range in
                                for t in range {
                                    let term = Int(terms[t])
                                    let location = locations[t]
                                    let slot = Location.slot(location)
                                    var score = slotScore[slot] | (location & slotPosition[slot])
                                    if location & SegmentBuilder.typoDisabledBit != 0 { score |= flag }
                                    if lastDoc[term] != Int32(ordinal) {
                                        lastDoc[term] = Int32(ordinal)
                                        let at = Int(cursor[term])
                                        cursor[term] += 1
                                        entry[term] = UInt32(at)
                                        docs[at] = UInt32(ordinal)
                                        scores[at] = score
                                    } else {
                                        let at = Int(entry[term])
                                        let old = scores[at]
                                        scores[at] = min(old & ~flag, score & ~flag) | (old & score & flag)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
