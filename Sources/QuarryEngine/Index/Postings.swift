/// Given a term, which documents contain it, and how well placed is it in each?
///
/// One flat buffer for all terms (term `t` owns `offsets[t]..<offsets[t + 1]`), doc ordinals ascending,
/// and beside each an `AttributeScore`: the best (lowest) attribute rank and position of the term in
/// that document. Candidate search and the `attribute` criterion read only these two arrays.
struct Postings: Sendable {
    let offsets: [UInt32]
    let docs: [UInt32]
    let scores: [UInt32]

    func range(of term: Int) -> Range<Int> { Int(offsets[term])..<Int(offsets[term + 1]) }

    func count(of term: Int) -> Int { Int(offsets[term + 1] - offsets[term]) }
}

/// Packs where a word sits for the `attribute` criterion: lower is better.
///
/// Bits 16…30 hold the searchable attribute's rank, bits 0…15 the word position (0 for
/// `unordered(attr)`), and bit 31 marks an occurrence only in attributes with typo tolerance disabled.
enum AttributeScore {
    static let typoDisabledFlag: UInt32 = 1 << 31
    static let none: UInt32 = UInt32.max

    @inline(__always)
    static func make(rank: Int, position: Int, ordered: Bool) -> UInt32 {
        UInt32(min(rank, 0x7FFF)) << 16 | (ordered ? UInt32(min(position, 0xFFFF)) : 0)
    }

    @inline(__always)
    static func rank(_ score: UInt32) -> Int { Int((score & ~typoDisabledFlag) >> 16) }

    @inline(__always)
    static func position(_ score: UInt32) -> Int { Int(score & 0xFFFF) }
}
