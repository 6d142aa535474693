/// Given a term, which documents contain it, and how well placed is it in each?
///
/// Per term, its documents' ordinals ascending and beside each an `AttributeScore`: the best (lowest)
/// attribute rank and position of the term in that document, in 16 bits. Postings are read front to
/// back only, so the ordinals are stored as gaps (the first from 0), each a `PrefixVarint`: frequent
/// terms, which hold most postings, take one byte a document instead of four. Term `t` owns postings
/// `offsets[t]..<offsets[t + 1]` (indices into `scores`, and counts) and bytes from `starts[t]`.
struct Postings: Sendable {
    let offsets: [UInt32]
    let starts: [UInt32]
    /// The gaps, then `PrefixVarint.padding` zero bytes.
    let bytes: [UInt8]
    let scores: [UInt16]

    init(offsets: [UInt32], starts: [UInt32], bytes: [UInt8], scores: [UInt16]) {
        self.offsets = offsets
        self.starts = starts
        self.bytes = bytes
        self.scores = scores
    }

    /// Packs postings given with plain ordinals (`docs`, ascending per term).
    init(offsets: [UInt32], docs: [UInt32], scores: [UInt16]) {
        let termCount = offsets.count - 1
        var starts = [UInt32](repeating: 0, count: offsets.count)
        var bytes = [UInt8]()
        bytes.reserveCapacity(docs.count * 3 / 2 + PrefixVarint.padding)
        for term in 0..<max(termCount, 0) {
            var previous: UInt32 = 0
            for i in Int(offsets[term])..<Int(offsets[term + 1]) {
                PrefixVarint.append(docs[i] - previous, to: &bytes)
                previous = docs[i]
            }
            starts[term + 1] = UInt32(bytes.count)
        }
        bytes.append(contentsOf: repeatElement(0, count: PrefixVarint.padding))
        self.init(offsets: offsets, starts: starts, bytes: bytes, scores: scores)
    }

    var termCount: Int { offsets.count - 1 }

    /// Posting indices of `term` (into `scores`).
    func range(of term: Int) -> Range<Int> { Int(offsets[term])..<Int(offsets[term + 1]) }

    func count(of term: Int) -> Int { Int(offsets[term + 1] - offsets[term]) }

    /// Calls `body(ordinal, postingIndex)` for each document of `term`, ascending.
    @inline(__always)
    func forEach(_ term: Int, _ body: (Int, Int) -> Void) {
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
                    scores.withUnsafeBufferPointer { scores in
                        body(PostingView(bytes: bytes, offsets: offsets, starts: starts, scores: scores))
                    }
                }
            }
        }
    }

    /// Whether every term's bytes decode to exactly its count of strictly ascending ordinals below
    /// `documents` and end at the next term's bytes: what a file must satisfy before searches read it.
    func isWellFormed(documents n: Int) -> Bool {
        guard offsets.count == starts.count, offsets.first == 0, starts.first == 0,
              let lastOffset = offsets.last, Int(lastOffset) == scores.count,
              let lastStart = starts.last, Int(lastStart) + PrefixVarint.padding == bytes.count,
              zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }),
              zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return false }
        return bytes.withUnsafeBytes { raw in
            for term in 0..<termCount {
                var p = Int(starts[term]), doc = 0, repeated = false
                let end = Int(starts[term + 1]), count = self.count(of: term)
                // Reads stay inside the padded buffer as long as each starts before `end`; ordinals ascend
                // when no gap after the first is zero, so the last one bounds them all.
                for k in 0..<count {
                    guard p < end else { return false }
                    let (gap, length) = PrefixVarint.read(raw, at: p)
                    repeated = repeated || (k > 0 && gap == 0)
                    doc += Int(gap)
                    p += length
                }
                if repeated || p != end || (count > 0 && doc >= n) { return false }
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
    let scores: UnsafeBufferPointer<UInt16>

    /// Calls `body(ordinal, postingIndex)` for each document of `term`, ascending.
    @inline(__always)
    func forEach(_ term: Int, _ body: (Int, Int) -> Void) {
        var p = Int(starts[term]), doc = 0
        for i in Int(offsets[term])..<Int(offsets[term + 1]) {
            let (gap, length) = PrefixVarint.read(bytes, at: p)
            p += length
            doc += Int(gap)
            body(doc, i)
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
        let (gap, length) = postings.bytes.withUnsafeBytes { PrefixVarint.read($0, at: position) }
        position += length
        remaining -= 1
        document = max(document, 0) + Int(gap)
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
