/// Which normalised words does a segment contain, and where do words sharing a prefix sit?
///
/// Terms are sorted bytewise and stored back to back in one buffer; a term's id is its rank. Every
/// prefix therefore names one contiguous id range (two binary searches), and the sorted list doubles
/// as an implicit trie for the typo walk (`TypoMatcher`).
struct TermDictionary: Sendable {
    /// All term bytes, concatenated in term order.
    let bytes: StoredArray<UInt8>
    /// `offsets[t]..<offsets[t + 1]` are the bytes of term `t`; `count + 1` entries.
    let offsets: StoredArray<UInt32>

    init(bytes: StoredArray<UInt8>, offsets: StoredArray<UInt32>) {
        self.bytes = bytes
        self.offsets = offsets
    }

    init(bytes: [UInt8], offsets: [UInt32]) {
        self.init(bytes: StoredArray(bytes), offsets: StoredArray(offsets))
    }

    var count: Int { offsets.count - 1 }

    @inline(__always)
    func length(_ term: Int) -> Int { Int(offsets[term + 1] - offsets[term]) }

    /// The byte at `depth` of `term`; callers check `depth < length(term)`.
    @inline(__always)
    func byte(_ term: Int, at depth: Int) -> UInt8 { bytes[Int(offsets[term]) + depth] }

    func term(_ id: Int) -> [UInt8] { Array(bytes[Int(offsets[id])..<Int(offsets[id + 1])]) }

    /// Bytewise three-way comparison of term `id` with `key`, looking only at the first `limit` bytes of the term.
    @inline(__always)
    func compare(_ id: Int, _ key: UnsafeBufferPointer<UInt8>, limit: Int = Int.max) -> Int {
        let start = Int(offsets[id])
        let length = min(Int(offsets[id + 1]) - start, limit)
        return bytes.withUnsafeBufferPointer { all in
            let common = min(length, key.count)
            var i = 0
            while i < common {
                let a = all[start + i], b = key[i]
                if a != b { return a < b ? -1 : 1 }
                i += 1
            }
            return length == key.count ? 0 : (length < key.count ? -1 : 1)
        }
    }

    /// The id of `word`, if present.
    func find(_ word: [UInt8]) -> Int? {
        word.withUnsafeBufferPointer { key in
            var lo = 0, hi = count
            while lo < hi {
                let mid = (lo + hi) >> 1
                let c = compare(mid, key)
                if c == 0 { return mid }
                if c < 0 { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
    }

    /// The ids of every term starting with `prefix`.
    func prefixRange(_ prefix: [UInt8]) -> Range<Int> {
        prefix.withUnsafeBufferPointer { key in
            // Lower bound: first term >= prefix. Upper bound: first term whose first |prefix| bytes exceed prefix.
            var lo = 0, hi = count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if compare(mid, key) < 0 { lo = mid + 1 } else { hi = mid }
            }
            let start = lo
            hi = count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if compare(mid, key, limit: key.count) <= 0 { lo = mid + 1 } else { hi = mid }
            }
            return start..<lo
        }
    }

    /// Within `range` (terms sharing their first `depth` bytes and all at least `depth + 1` long),
    /// the end of the run of terms whose byte at `depth` equals that of `range.lowerBound`.
    func childEnd(in range: Range<Int>, depth: Int) -> Int {
        let b = byte(range.lowerBound, at: depth)
        var lo = range.lowerBound + 1, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) >> 1
            if byte(mid, at: depth) <= b { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
