/// Given a term, which documents contain it, and how well placed is it in each?
///
/// One flat buffer for all terms (term `t` owns `offsets[t]..<offsets[t + 1]`), doc ordinals ascending,
/// and beside each an `AttributeScore`: the best (lowest) attribute rank and position of the term in
/// that document, in 16 bits. Candidate search and the `attribute` criterion read only these two arrays.
struct Postings: Sendable {
    let offsets: [UInt32]
    let docs: [UInt32]
    let scores: [UInt16]

    func range(of term: Int) -> Range<Int> { Int(offsets[term])..<Int(offsets[term + 1]) }

    func count(of term: Int) -> Int { Int(offsets[term + 1] - offsets[term]) }
}

/// Packs where a word sits for the `attribute` criterion: lower is better.
///
/// Bits 10…14 hold the searchable attribute's rank (ranks past 31 share 31), bits 0…9 the word
/// position (capped at 1023; 0 for `unordered(attr)`), and bit 15 marks an occurrence only in
/// attributes with typo tolerance disabled. 16 bits keep postings at 6 bytes per entry.
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
