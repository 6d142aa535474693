/// Where, inside one document, does each of its words occur?
///
/// Per document (by ordinal) the tokens in reading order: the term id and a `Location` (attribute slot
/// and word position). Proximity, the token strategy of `Candidates` and per-hit ranking details read
/// them; merges read them to rebuild a segment without the records. Each token is three interleaved
/// UInt16s (term high, term low, location): 6 bytes, and one cache miss per document, not two.
struct DocumentPositions: Sendable {
    /// `starts[d]..<starts[d + 1]` are document `d`'s token indices.
    let starts: [UInt32]
    let tokens: [UInt16]

    init(starts: [UInt32], tokens: [UInt16]) {
        self.starts = starts
        self.tokens = tokens
    }

    init(starts: [UInt32], terms: [UInt32], locations: [UInt16]) {
        var tokens = [UInt16]()
        tokens.reserveCapacity(terms.count * 3)
        for (term, location) in zip(terms, locations) {
            tokens.append(UInt16(truncatingIfNeeded: term >> 16))
            tokens.append(UInt16(truncatingIfNeeded: term))
            tokens.append(location)
        }
        self.init(starts: starts, tokens: tokens)
    }

    var tokenCount: Int { tokens.count / 3 }

    func range(of doc: Int) -> Range<Int> { Int(starts[doc])..<Int(starts[doc + 1]) }

    func term(_ t: Int) -> Int { Int(tokens[3 * t]) << 16 | Int(tokens[3 * t + 1]) }

    func location(_ t: Int) -> UInt16 { tokens[3 * t + 2] }

    /// Raw access for hot loops.
    func withTokens<R>(_ body: (TokenView) -> R) -> R {
        tokens.withUnsafeBufferPointer { body(TokenView(raw: $0)) }
    }
}

struct TokenView {
    let raw: UnsafeBufferPointer<UInt16>

    @inline(__always)
    func term(_ t: Int) -> Int { Int(raw[3 * t]) << 16 | Int(raw[3 * t + 1]) }

    @inline(__always)
    func location(_ t: Int) -> UInt16 { raw[3 * t + 2] }
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
