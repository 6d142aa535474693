/// The order of a segment's dictionary: terms bytewise, a term before those it is a prefix of.
///
/// A batch's build sorted its terms by comparing their bytes one at a time through the interner's offsets,
/// which took a sixth of the build's samples and sits on a write's critical path, after its last record
/// (Benchmarks/RESULTS.md, "Where a batch's time goes, and a build's dictionary sorted by keys"). Here each
/// term first gets its first eight bytes as one big-endian integer, zero-padded, and only terms whose
/// integers agree are compared further. Where the integers differ they order the terms as their bytes do: at
/// the first byte that differs, either both terms have a byte there, or one has only padding (zero) where the
/// other has a larger byte, and is the shorter term, which comes first.
enum TermOrder {
    /// The ids `0..<count` of the terms at `offsets` in `bytes` (term `i` is
    /// `bytes[offsets[i]..<offsets[i + 1]]`), in dictionary order. Terms must be distinct.
    static func sorted(bytes: [UInt8], offsets: [UInt32], count: Int) -> [UInt32] {
        bytes.withUnsafeBufferPointer { all in
            offsets.withUnsafeBufferPointer { offsets in
                var entries: [(key: UInt64, id: UInt32)] = []
                entries.reserveCapacity(count)
                for id in 0..<count {
                    let start = Int(offsets[id]), length = Int(offsets[id + 1]) - start
                    var key: UInt64 = 0
                    for i in 0..<8 { key = key << 8 | (i < length ? UInt64(all[start + i]) : 0) }
                    entries.append((key, UInt32(id)))
                }
                entries.sort { a, b in
                    if a.key != b.key { return a.key < b.key }
                    return precedes(Int(a.id), Int(b.id), all, offsets)
                }
                return entries.map(\.id)
            }
        }
    }

    /// Term `a` before term `b`, given that their first eight bytes (padded) agree.
    private static func precedes(
        _ a: Int, _ b: Int, _ all: UnsafeBufferPointer<UInt8>, _ offsets: UnsafeBufferPointer<UInt32>
    ) -> Bool {
        let sa = Int(offsets[a]), la = Int(offsets[a + 1]) - sa
        let sb = Int(offsets[b]), lb = Int(offsets[b + 1]) - sb
        let common = min(la, lb)
        var i = min(8, common)
        while i < common {
            let x = all[sa + i], y = all[sb + i]
            if x != y { return x < y }
            i += 1
        }
        return la < lb
    }
}
