/// How well can a document score on a prefix: not at all, or at one of three grades?
///
/// A level from 0 to 3 per document in two bits, fixed once made, read in place from the index file
/// when opened (`PrefixSets`). It replaces three nested bitsets (a document's level is how many of them
/// hold it): a third less space, and one load per document instead of up to three on three pages.
struct DocumentLevels: Sendable {
    /// 32 documents a word: document `d` in bits `2 * (d % 32)` and `2 * (d % 32) + 1` of word `d / 32`.
    let words: StoredArray<UInt64>

    init(words: StoredArray<UInt64>) { self.words = words }

    /// Packs three bitsets of 64 documents a word, `inner ⊆ middle ⊆ outer`, into levels 3, 2 and 1;
    /// a document in `inner` is 3 and one in `middle` at least 2 even if the others miss it.
    init(outer: [UInt64], middle: [UInt64], inner: [UInt64]) {
        var packed = [UInt64](repeating: 0, count: 2 * outer.count)
        for i in outer.indices {
            let high = middle[i] | inner[i], low = inner[i] | (outer[i] & ~middle[i])
            packed[2 * i] = Self.spread(UInt32(truncatingIfNeeded: low)) | Self.spread(UInt32(truncatingIfNeeded: high)) << 1
            packed[2 * i + 1] = Self.spread(UInt32(truncatingIfNeeded: low >> 32)) | Self.spread(UInt32(truncatingIfNeeded: high >> 32)) << 1
        }
        words = StoredArray(packed)
    }

    /// Words needed for `n` documents.
    static func wordCount(documents n: Int) -> Int { 2 * ((n + 63) >> 6) }

    @inline(__always)
    subscript(d: Int) -> Int {
        let w = d >> 5
        return w < words.count ? Int(truncatingIfNeeded: words[w] >> UInt64((d & 31) << 1)) & 3 : 0
    }

    /// Calls `body` with each document of level 1 or more, ascending.
    @inline(__always)
    func forEachMember(_ body: (Int) -> Void) {
        words.withUnsafeBufferPointer { words in
            for (i, word) in words.enumerated() {
                var members = (word | word >> 1) & Self.lowBits
                while members != 0 {
                    body(i << 5 | members.trailingZeroBitCount >> 1)
                    members &= members - 1
                }
            }
        }
    }

    private static let lowBits: UInt64 = 0x5555_5555_5555_5555

    /// Bit `i` of `x` moved to bit `2i`.
    private static func spread(_ x: UInt32) -> UInt64 {
        var x = UInt64(x)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | x << 2) & 0x3333_3333_3333_3333
        return (x | x << 1) & lowBits
    }
}
