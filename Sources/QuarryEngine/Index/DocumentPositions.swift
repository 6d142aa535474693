/// Where, inside one document, does each of its words occur?
///
/// Per document (by ordinal) the tokens in reading order: the term id and a `Location` (attribute slot
/// and word position). Proximity and the per-hit ranking details read a few dozen entries for the few
/// documents that reach the page; merges read them to rebuild a segment without the records.
struct DocumentPositions: Sendable {
    /// `starts[d]..<starts[d + 1]` are document `d`'s tokens.
    let starts: [UInt32]
    let terms: [UInt32]
    let locations: [UInt16]

    func range(of doc: Int) -> Range<Int> { Int(starts[doc])..<Int(starts[doc + 1]) }
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
