import CPrefetch

/// Where, inside one document, does each of its words occur?
///
/// Per document (by ordinal) the tokens in reading order: the term id and a `Location` (attribute slot
/// and word position). Proximity, the token strategy of `Candidates` and per-hit ranking details read
/// them; merges read them to rebuild a segment without the records. As plain arrays they were a
/// segment's largest structure, so each document's tokens are packed into bytes (see `TokenCoding`):
/// about 2 bytes a token on real text instead of 6, read front to back without a branch per token.
struct DocumentPositions: Sendable {
    /// `starts[d]..<starts[d + 1]` are document `d`'s bytes.
    let starts: StoredArray<UInt32>
    /// The packed tokens, then `TokenCoding.padding` zero bytes so a decoder may load 4 bytes anywhere.
    let bytes: StoredArray<UInt8>
    /// Term id by code: codes are given in descending token frequency, so common words take one byte.
    let terms: StoredArray<UInt32>
    /// Code by term id (`UInt32.max` for a term without one), so a query can mark its words' codes and
    /// skip other tokens without looking their terms up.
    let codes: [UInt32]
    let tokenCount: Int

    init(starts: StoredArray<UInt32>, bytes: StoredArray<UInt8>, terms: StoredArray<UInt32>, tokenCount: Int) {
        self.starts = starts
        self.bytes = bytes
        self.terms = terms
        self.tokenCount = tokenCount
        // Sized by the codes, not by the largest term: a damaged file's term ids are checked only later.
        var codes = [UInt32](repeating: .max, count: terms.count)
        for (code, term) in terms.enumerated() where Int(term) < codes.count { codes[Int(term)] = UInt32(code) }
        self.codes = codes
    }

    /// Packs tokens given as parallel arrays (`starts` index them) of `termCount` distinct terms.
    init(starts: [UInt32], terms: [UInt32], locations: [UInt16], termCount: Int) {
        self.init(SegmentTokens(starts: starts, terms: terms, locations: locations, termCount: termCount))
    }

    /// Packs a builder's tokens in segment order, under sorted term ids, their bytes into `spill` when given
    /// (a large build's, as a large merge's: `SpillFile`), else into the heap block that becomes the array.
    init(_ tokens: SegmentTokens, spill: SpillFile? = nil) {
        let termCount = tokens.termCount, sortedTerm = tokens.sortedTerm
        var frequency = [UInt32](repeating: 0, count: termCount)
        for term in tokens.terms { frequency[Int(term)] &+= 1 }
        // Ties go by sorted term id, so the codes do not depend on the order terms were interned in.
        var termOfSorted = [UInt32](repeating: 0, count: termCount)
        for (term, sorted) in sortedTerm.enumerated() { termOfSorted[Int(sorted)] = UInt32(term) }
        let bySortedFrequency = FrequencyOrder.sorted(frequency, ids: sortedTerm)
        var codeOf = [UInt32](repeating: 0, count: termCount)
        for (code, sorted) in bySortedFrequency.enumerated() { codeOf[Int(termOfSorted[Int(sorted)])] = UInt32(code) }
        // Each document's length first, then its bytes front to back.
        var starts = [UInt32](repeating: 0, count: tokens.documentCount + 1)
        tokens.terms.withUnsafeBufferPointer { terms in
            tokens.locations.withUnsafeBufferPointer { locations in
                tokens.forEachDocument { ordinal, range in
                    var length = 0, previous: UInt16?
                    for t in range {
                        length += TokenCoding.length(code: codeOf[Int(terms[t])], location: locations[t], after: previous)
                        previous = locations[t]
                    }
                    starts[ordinal + 1] = UInt32(length)
                }
            }
        }
        for ordinal in 0..<tokens.documentCount { starts[ordinal + 1] += starts[ordinal] }
        let bytes = MergedBytes.stored(capacity: Int(starts[tokens.documentCount]), padding: TokenCoding.padding, spill: spill) { bytes in
            tokens.terms.withUnsafeBufferPointer { terms in
                tokens.locations.withUnsafeBufferPointer { locations in
                    tokens.forEachDocument { ordinal, range in
                        bytes.append(atMost: Int(starts[ordinal + 1] - starts[ordinal])) { out in
                            var at = 0, previous: UInt16?
                            for t in range {
                                at = TokenCoding.write(code: codeOf[Int(terms[t])], location: locations[t], after: previous,
                                                       to: out, at: at)
                                previous = locations[t]
                            }
                            return at
                        }
                    }
                }
            }
        }
        self.init(starts: StoredArray(starts), bytes: bytes, terms: StoredArray(bySortedFrequency),
                  tokenCount: tokens.terms.count)
    }

    var documentCount: Int { starts.count - 1 }

    /// Starts loading document `near`'s first tokens and `far`'s bounds, for a loop about to read them.
    @inline(__always)
    func prefetch(near: Int, far: Int) {
        starts.withUnsafeBufferPointer { starts in
            guard near < starts.count, far < starts.count else { return }
            bytes.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress, Int(starts[near]) < bytes.count { quarry_prefetch(base + Int(starts[near])) }
            }
            quarry_prefetch(starts.baseAddress.map { UnsafeRawPointer($0 + far) })
        }
    }

    /// Calls `body(term, location)` for each of document `doc`'s tokens, in reading order.
    @inline(__always)
    func forEachToken(of doc: Int, _ body: (Int, UInt16) -> Void) {
        withTokens { $0.forEach(doc, body) }
    }

    /// Document `doc`'s tokens as two arrays, for the passes that walk them back and forth.
    func tokens(of doc: Int) -> (terms: [Int], locations: [UInt16]) {
        var terms: [Int] = [], locations: [UInt16] = []
        forEachToken(of: doc) { term, location in
            terms.append(term)
            locations.append(location)
        }
        return (terms, locations)
    }

    /// Raw access for hot loops.
    @inline(__always)
    func withTokens<R>(_ body: (TokenView) -> R) -> R {
        bytes.withUnsafeBytes { bytes in
            starts.withUnsafeBufferPointer { starts in
                terms.withUnsafeBufferPointer { terms in body(TokenView(bytes: bytes, starts: starts, terms: terms)) }
            }
        }
    }

    /// Whether every document's bytes decode to tokens of known codes and end exactly at the next
    /// document: what a file must satisfy before searches decode it unchecked.
    func isWellFormed(termCount: Int) -> Bool {
        guard let last = starts.last, Int(last) + TokenCoding.padding == bytes.count,
              zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }), terms.allSatisfy({ Int($0) < termCount })
        else { return false }
        var window = WalkWindow(bytes)
        defer { window.finish() }
        return bytes.withUnsafeBytes { raw in
            var count = 0
            for doc in 0..<documentCount {
                var p = Int(starts[doc])
                window.reach(p)
                let end = Int(starts[doc + 1])
                var first = true
                while p < end {
                    let (code, next, length) = TokenCoding.head(raw, at: p)
                    if Int(code) >= terms.count || (first && next) { return false }
                    p += length + (next ? 0 : 2)
                    first = false
                    count += 1
                }
                if p != end { return false }
            }
            return count == tokenCount
        }
    }
}

/// A document's tokens over raw buffers: what hot loops decode.
struct TokenView {
    let bytes: UnsafeRawBufferPointer
    let starts: UnsafeBufferPointer<UInt32>
    let terms: UnsafeBufferPointer<UInt32>

    @inline(__always)
    func forEach(_ doc: Int, _ body: (Int, UInt16) -> Void) {
        forEachCode(doc) { code, location in body(Int(terms[code]), location) }
    }

    /// Like `forEach`, with each token's code (see `DocumentPositions.terms`) instead of its term.
    @inline(__always)
    func forEachCode(_ doc: Int, _ body: (Int, UInt16) -> Void) {
        var p = Int(starts[doc])
        let end = Int(starts[doc + 1])
        var location: UInt16 = 0
        while p < end {
            let (code, next, length) = TokenCoding.head(bytes, at: p)
            p += length
            // Branch-free: the explicit location is loaded whether or not it is there (padding makes it safe).
            let explicit = bytes.loadUnaligned(fromByteOffset: p, as: UInt16.self).littleEndian
            location = next ? location &+ 1 : explicit
            p += next ? 0 : 2
            body(Int(code), location)
        }
    }
}

/// How one token becomes bytes.
///
/// A `PrefixVarint` of `code << 1 | next`: `next` says the location is the previous token's plus one
/// (the next word of the same attribute, as most words are); otherwise 2 bytes of location follow.
enum TokenCoding {
    static let padding = PrefixVarint.padding

    /// The varint's value and whether the location follows the previous one (then it is not written).
    @inline(__always)
    private static func flagged(code: UInt32, location: UInt16, after previous: UInt16?) -> (value: UInt32, next: Bool) {
        let next = previous.map { $0 &+ 1 == location } ?? false
        return (code << 1 | (next ? 1 : 0), next)
    }

    static func append(code: UInt32, location: UInt16, after previous: UInt16?, to bytes: inout [UInt8]) {
        let (value, next) = flagged(code: code, location: location, after: previous)
        PrefixVarint.append(value, to: &bytes)
        if !next {
            bytes.append(UInt8(truncatingIfNeeded: location))
            bytes.append(UInt8(truncatingIfNeeded: location >> 8))
        }
    }

    /// How many bytes `append` adds for this token.
    @inline(__always)
    static func length(code: UInt32, location: UInt16, after previous: UInt16?) -> Int {
        let (value, next) = flagged(code: code, location: location, after: previous)
        return PrefixVarint.length(value) + (next ? 0 : 2)
    }

    /// Writes what `append` adds at `p` of a buffer sized by `length` beforehand; returns the next offset.
    @inline(__always)
    static func write(code: UInt32, location: UInt16, after previous: UInt16?, to bytes: UnsafeMutableBufferPointer<UInt8>,
                      at p: Int) -> Int {
        let (value, next) = flagged(code: code, location: location, after: previous)
        var p = PrefixVarint.write(value, to: bytes, at: p)
        if !next {
            bytes[p] = UInt8(truncatingIfNeeded: location)
            bytes[p + 1] = UInt8(truncatingIfNeeded: location >> 8)
            p += 2
        }
        return p
    }

    /// The code, the `next` flag and the varint's byte length at `p`.
    @inline(__always)
    static func head(_ bytes: UnsafeRawBufferPointer, at p: Int) -> (code: UInt32, next: Bool, length: Int) {
        let (value, length) = PrefixVarint.read(bytes, at: p)
        return (value >> 1, value & 1 != 0, length)
    }
}

/// A word's place in 16 bits: attribute slot in bits 10…14 (slots past 31 share 31), position in
/// bits 0…9 (capped at 1023); bit 15 is kept for `SegmentBuilder.typoDisabledBit`.
enum Location {
    /// Positions skipped between array elements, so words of different elements are never "near".
    static let elementGap = 8
    static let maxPosition = 0x3FF

    @inline(__always)
    static func make(slot: Int, position: Int) -> UInt16 {
        UInt16(min(slot, 31)) << 10 | UInt16(min(position, maxPosition))
    }

    @inline(__always)
    static func slot(_ location: UInt16) -> Int { Int((location >> 10) & 0x1F) }

    @inline(__always)
    static func position(_ location: UInt16) -> Int { Int(location & 0x3FF) }
}
