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
    /// The keys are sorted by radix (`RadixSort`), then terms whose keys agree by their remaining bytes.
    static func sorted(bytes: [UInt8], offsets: [UInt32], count: Int) -> [UInt32] {
        bytes.withUnsafeBufferPointer { all in
            offsets.withUnsafeBufferPointer { offsets in
                var keys = [UInt64](unsafeUninitializedCapacity: count) { keys, initialized in
                    for id in 0..<count { keys[id] = key(all, Int(offsets[id]), Int(offsets[id + 1])) }
                    initialized = count
                }
                var ids = [UInt32](unsafeUninitializedCapacity: count) { ids, initialized in
                    for id in 0..<count { ids[id] = UInt32(id) }
                    initialized = count
                }
                RadixSort.sort(&keys, carrying: &ids)
                var start = 0
                while start < count {
                    var end = start + 1
                    while end < count && keys[end] == keys[start] { end += 1 }
                    if end - start > 1 {
                        ids[start..<end].sort { a, b in
                            let sa = Int(offsets[Int(a)]), sb = Int(offsets[Int(b)])
                            return compare(sameKey: all, sa, Int(offsets[Int(a) + 1]) - sa, sb, Int(offsets[Int(b) + 1]) - sb) < 0
                        }
                    }
                    start = end
                }
                return ids
            }
        }
    }

    /// The first eight bytes of the term `all[start..<end]` as one big-endian integer, zeros past its end.
    @inline(__always)
    static func key(_ all: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var key: UInt64 = 0
        for i in 0..<8 { key = key << 8 | (start + i < end ? UInt64(all[start + i]) : 0) }
        return key
    }

    /// Bytewise three-way comparison of the terms at `sa` and `sb` of `all`, `la` and `lb` bytes long, whose
    /// keys are equal: their first eight bytes agree, so only the rest and the lengths are compared.
    @inline(__always)
    static func compare(sameKey all: UnsafeBufferPointer<UInt8>, _ sa: Int, _ la: Int, _ sb: Int, _ lb: Int) -> Int {
        let common = min(la, lb)
        var i = min(8, common)
        while i < common {
            let x = all[sa + i], y = all[sb + i]
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return la == lb ? 0 : (la < lb ? -1 : 1)
    }
}
