/// Given a term, which documents contain it, and how well placed is it in each?
///
/// Per term, its documents' ordinals ascending and beside each an `AttributeScore`: the best (lowest)
/// attribute rank and position of the term in that document. Postings are read front to back only,
/// so each is two `PrefixVarint`s in one byte stream: the gap from the previous ordinal (the first
/// from 0), then the score's code. Codes are given in descending frequency (`scoreValues` maps them
/// back), and a segment has few distinct scores, so a frequent term's posting takes about two bytes
/// instead of six. Term `t` owns postings `offsets[t]..<offsets[t + 1]` (counts) and bytes from `starts[t]`.
struct Postings: Sendable {
    let offsets: StoredArray<UInt32>
    let starts: StoredArray<UInt32>
    /// The postings, then `PrefixVarint.padding` zero bytes.
    let bytes: StoredArray<UInt8>
    /// Score by code.
    let scoreValues: [UInt16]
    /// Per term, its lowest score with the typo flag cleared (`.max` when it has no posting): what
    /// `PrefixSets` bounds a prefix with before reading any posting.
    let lowestScores: StoredArray<UInt16>

    init(offsets: StoredArray<UInt32>, starts: StoredArray<UInt32>, bytes: StoredArray<UInt8>, scoreValues: [UInt16],
         lowestScores: StoredArray<UInt16>) {
        self.offsets = offsets
        self.starts = starts
        self.bytes = bytes
        self.scoreValues = scoreValues
        self.lowestScores = lowestScores
    }

    /// Packs postings given as plain arrays (`docs` ascending per term, `scores` beside them), their bytes
    /// into `spill` when given (a large build's, as a large merge's: `SpillFile`), else into the heap block
    /// that becomes the array.
    init(offsets: [UInt32], docs: [UInt32], scores: [UInt16], spill: SpillFile? = nil) {
        // Sized to the highest score for a small build; a large one takes the whole table rather than a pass
        // more over tens of millions of scores.
        let tableSize = scores.count < 1 << 16 ? Int(scores.max() ?? 0) + 1 : 1 << 16
        var frequency = [Int](repeating: 0, count: tableSize)
        for score in scores { frequency[Int(score)] += 1 }
        let codes = ScoreCodes(frequency: frequency), codeOf = codes.code
        let termCount = max(offsets.count - 1, 0)
        var starts = [UInt32](repeating: 0, count: offsets.count)
        var lowestScores = [UInt16](repeating: .max, count: termCount)
        // Sized first, then written front to back: a million-record segment has tens of millions of postings.
        var size = 0
        for term in 0..<termCount {
            var previous: UInt32 = 0
            for i in Int(offsets[term])..<Int(offsets[term + 1]) {
                size += PrefixVarint.length(docs[i] - previous) + PrefixVarint.length(codeOf[Int(scores[i])])
                previous = docs[i]
                lowestScores[term] = min(lowestScores[term], scores[i] & ~AttributeScore.typoDisabledFlag)
            }
            starts[term + 1] = UInt32(size)
        }
        let bytes = MergedBytes.stored(capacity: size, padding: PrefixVarint.padding, spill: spill) { bytes in
            for term in 0..<termCount {
                bytes.append(atMost: Int(starts[term + 1] - starts[term])) { encoded in
                    var previous: UInt32 = 0, length = 0
                    for i in Int(offsets[term])..<Int(offsets[term + 1]) {
                        length = PrefixVarint.write(docs[i] - previous, to: encoded, at: length)
                        length = PrefixVarint.write(codeOf[Int(scores[i])], to: encoded, at: length)
                        previous = docs[i]
                    }
                    return length
                }
            }
        }
        self.init(offsets: StoredArray(offsets), starts: StoredArray(starts), bytes: bytes, scoreValues: codes.values,
                  lowestScores: StoredArray(lowestScores))
    }

    /// Codes for the scores in use, the most frequent first.
    struct ScoreCodes {
        /// Code by score.
        let code: [UInt32]
        /// Score by code.
        let values: [UInt16]

        /// From how many postings carry each score, counted up to the highest: sized to all 65,536 scores,
        /// the counts and codes cost a write of one record more than its postings.
        init(frequency: [Int]) {
            let used = frequency.indices.filter { frequency[$0] > 0 }
            let byFrequency = used.sorted { frequency[$0] != frequency[$1] ? frequency[$0] > frequency[$1] : $0 < $1 }
            var code = [UInt32](repeating: 0, count: frequency.count)
            for (c, score) in byFrequency.enumerated() { code[score] = UInt32(c) }
            self.code = code
            values = byFrequency.map { UInt16($0) }
        }
    }

    var termCount: Int { offsets.count - 1 }

    func count(of term: Int) -> Int { Int(offsets[term + 1] - offsets[term]) }

    /// Calls `body(ordinal, score)` for each document of `term`, ascending.
    @inline(__always)
    func forEach(_ term: Int, _ body: (Int, UInt16) -> Void) {
        withView { $0.forEach(term, body) }
    }

    /// The ordinals of `term`, ascending.
    func documents(of term: Int) -> [UInt32] {
        var documents: [UInt32] = []
        documents.reserveCapacity(count(of: term))
        forEach(term) { d, _ in documents.append(UInt32(d)) }
        return documents
    }

    /// Raw access for hot loops.
    @inline(__always)
    func withView<R>(_ body: (PostingView) -> R) -> R {
        bytes.withUnsafeBytes { bytes in
            offsets.withUnsafeBufferPointer { offsets in
                starts.withUnsafeBufferPointer { starts in
                    scoreValues.withUnsafeBufferPointer { scores in
                        body(PostingView(bytes: bytes, offsets: offsets, starts: starts, scoreValues: scores))
                    }
                }
            }
        }
    }

    /// Whether every term's bytes decode to exactly its count of strictly ascending ordinals below
    /// `documents`, with known score codes, and end at the next term's bytes: what a file must satisfy
    /// before searches read it.
    func isWellFormed(documents n: Int) -> Bool {
        guard offsets.count == starts.count, offsets.first == 0, starts.first == 0, lowestScores.count == termCount,
              let lastStart = starts.last, Int(lastStart) + PrefixVarint.padding == bytes.count,
              zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }),
              zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return false }
        let codes = UInt32(scoreValues.count)
        var window = WalkWindow(bytes)
        defer { window.finish() }
        return bytes.withUnsafeBytes { raw in
            for term in 0..<termCount {
                var p = Int(starts[term]), doc = 0, repeated = false, highestCode: UInt32 = 0
                window.reach(p)
                let end = Int(starts[term + 1]), count = self.count(of: term)
                // Reads stay inside the padded buffer as long as each posting starts before `end`;
                // ordinals ascend when no gap after the first is zero, so the last one bounds them all.
                for k in 0..<count {
                    guard p < end else { return false }
                    let (gap, gapLength) = PrefixVarint.read(raw, at: p)
                    let (code, codeLength) = PrefixVarint.read(raw, at: p + gapLength)
                    repeated = repeated || (k > 0 && gap == 0)
                    highestCode = max(highestCode, code)
                    doc += Int(gap)
                    p += gapLength + codeLength
                }
                if repeated || p != end || (count > 0 && (doc >= n || highestCode >= codes)) { return false }
            }
            return true
        }
    }
}

/// Postings over raw buffers: what hot loops decode.
struct PostingView {
    let bytes: UnsafeRawBufferPointer
    let offsets: UnsafeBufferPointer<UInt32>
    let starts: UnsafeBufferPointer<UInt32>
    let scoreValues: UnsafeBufferPointer<UInt16>

    /// Calls `body(ordinal, score)` for each document of `term`, ascending.
    @inline(__always)
    func forEach(_ term: Int, _ body: (Int, UInt16) -> Void) {
        var p = Int(starts[term]), doc = 0
        for _ in 0..<Int(offsets[term + 1] - offsets[term]) {
            let (gap, gapLength) = PrefixVarint.read(bytes, at: p)
            let (code, codeLength) = PrefixVarint.read(bytes, at: p + gapLength)
            p += gapLength + codeLength
            doc += Int(gap)
            body(doc, scoreValues[Int(code)])
        }
    }
}

/// Walks one term's documents in step with another walk (see `SegmentRanker`).
struct PostingCursor {
    private let postings: Postings
    private var position: Int
    private var remaining: Int
    /// The current document; -1 before the first `advance`.
    private(set) var document = -1

    init(_ postings: Postings, term: Int) {
        self.postings = postings
        position = Int(postings.starts[term])
        remaining = postings.count(of: term)
    }

    /// Moves to the next document; false when there is none.
    mutating func advance() -> Bool {
        guard remaining > 0 else { return false }
        let length = postings.bytes.withUnsafeBytes { raw -> (gap: UInt32, bytes: Int) in
            let (gap, gapLength) = PrefixVarint.read(raw, at: position)
            return (gap, gapLength + PrefixVarint.read(raw, at: position + gapLength).length)
        }
        position += length.bytes
        remaining -= 1
        document = max(document, 0) + Int(length.gap)
        return true
    }
}

/// Packs where a word sits for the `attribute` criterion: lower is better.
///
/// Bits 10…14 hold the searchable attribute's rank (ranks past 31 share 31), bits 0…9 the word
/// position (capped at 1023; 0 for `unordered(attr)`), and bit 15 marks an occurrence only in
/// attributes with typo tolerance disabled.
enum AttributeScore {
    static let typoDisabledFlag: UInt16 = 1 << 15
    static let none: UInt16 = UInt16.max

    @inline(__always)
    static func make(rank: Int, position: Int, ordered: Bool) -> UInt16 {
        UInt16(min(rank, 31)) << 10 | (ordered ? UInt16(min(position, Location.maxPosition)) : 0)
    }

    @inline(__always)
    static func rank(_ score: UInt16) -> Int { Int((score & ~typoDisabledFlag) >> 10) }

    @inline(__always)
    static func position(_ score: UInt16) -> Int { Int(score & 0x3FF) }
}
