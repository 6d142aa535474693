/// Which documents hold each value of a facet column: what a facet filter reads.
///
/// Value `v` has `starts[v + 1] - starts[v]` documents (counts read only these) in bytes
/// `offsets[v]..<offsets[v + 1]`, in one of two forms chosen by that count:
/// - held by an eighth of the documents or more (a brand of half the catalogue), a bitset of 64
///   documents a little-endian word: at most a bit per document, and a filter ORs it in word by word;
/// - else its ordinals ascending as `PrefixVarint` gaps (the first from 0), read front to back like
///   postings: about a byte a document where a plain ordinal took four.
/// Only filters and counts read them, so an opened segment leaves them in its file.
struct ValueDocuments: Sendable {
    let starts: StoredArray<UInt32>
    let offsets: StoredArray<UInt32>
    /// The values' bytes, then `PrefixVarint.padding` zero bytes.
    let bytes: StoredArray<UInt8>
    /// The segment's documents: ordinals are below it, and it decides which values are bitsets.
    let documentCount: Int

    init(starts: StoredArray<UInt32>, offsets: StoredArray<UInt32>, bytes: StoredArray<UInt8>, documents: Int) {
        self.starts = starts
        self.offsets = offsets
        self.bytes = bytes
        documentCount = documents
    }

    /// Packs `ordinals`, each value's ascending, `starts` indexing them, for a segment of `n` documents.
    init(starts: [UInt32], ordinals: [UInt32], documents n: Int) {
        var offsets = [UInt32](repeating: 0, count: starts.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ordinals.count * 2 + PrefixVarint.padding)
        for v in 0..<max(starts.count - 1, 0) {
            let own = ordinals[Int(starts[v])..<Int(starts[v + 1])]
            if Self.isBitset(count: own.count, documents: n) {
                var words = [UInt64](repeating: 0, count: Self.wordCount(n))
                for d in own { words[Int(d) >> 6] |= 1 << UInt64(d & 63) }
                for word in words { withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) } }
            } else {
                var previous: UInt32 = 0
                for d in own {
                    PrefixVarint.append(d - previous, to: &bytes)
                    previous = d
                }
            }
            offsets[v + 1] = UInt32(bytes.count)
        }
        bytes.append(contentsOf: repeatElement(0, count: PrefixVarint.padding))
        self.init(starts: StoredArray(starts), offsets: StoredArray(offsets), bytes: StoredArray(bytes), documents: n)
    }

    private static func isBitset(count: Int, documents n: Int) -> Bool { count > 0 && count * 8 >= n }

    private static func wordCount(_ n: Int) -> Int { (n + 63) >> 6 }

    func count(of value: Int) -> UInt32 { starts[value + 1] - starts[value] }

    /// Word `w` of the bitset whose bytes begin at `base`.
    @inline(__always)
    private static func word(_ w: Int, of raw: UnsafeRawBufferPointer, at base: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + w << 3, as: UInt64.self))
    }

    /// Sets the bit of each document holding `value` in `bits` (a bitset over the segment).
    @inline(__always)
    func add(_ value: Int, to bits: UnsafeMutableBufferPointer<UInt64>) {
        if Self.isBitset(count: Int(count(of: value)), documents: documentCount) {
            bytes.withUnsafeBytes { raw in
                let base = Int(offsets[value])
                for w in 0..<min(Self.wordCount(documentCount), bits.count) {
                    bits[w] |= Self.word(w, of: raw, at: base)
                }
            }
        } else {
            forEachDocument(of: value) { d in bits[d >> 6] |= 1 << UInt64(d & 63) }
        }
    }

    /// Calls `body` with each document holding `value`, ascending.
    @inline(__always)
    func forEachDocument(of value: Int, _ body: (Int) -> Void) {
        bytes.withUnsafeBytes { raw in
            var p = Int(offsets[value])
            let end = Int(offsets[value + 1])
            if Self.isBitset(count: Int(count(of: value)), documents: documentCount) {
                for w in 0..<Self.wordCount(documentCount) {
                    var word = Self.word(w, of: raw, at: p)
                    while word != 0 {
                        body(w << 6 | word.trailingZeroBitCount)
                        word &= word - 1
                    }
                }
                return
            }
            var d = 0
            while p < end {
                let (gap, length) = PrefixVarint.read(raw, at: p)
                d += Int(gap)
                p += length
                body(d)
            }
        }
    }

    /// Whether a file's arrays decode as `valueCount` values' ascending documents below the segment's
    /// count, `held` in all, each value's bytes ending where the next one's begin.
    func isWellFormed(valueCount values: Int, held: Int) -> Bool {
        let n = documentCount
        guard starts.count == values + 1, offsets.count == values + 1, starts.first == 0, offsets.first == 0,
              starts.last.map({ Int($0) == held }) ?? false,
              offsets.last.map({ Int($0) + PrefixVarint.padding == bytes.count }) ?? false,
              zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }), zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return false }
        return bytes.withUnsafeBytes { raw in
            for v in 0..<values {
                var p = Int(offsets[v]), seen = 0
                let end = Int(offsets[v + 1]), expected = Int(count(of: v))
                if Self.isBitset(count: expected, documents: n) {
                    let words = Self.wordCount(n)
                    guard end - p == words << 3 else { return false }
                    for w in 0..<words {
                        let word = Self.word(w, of: raw, at: p)
                        seen += word.nonzeroBitCount
                        if w == words - 1 && n & 63 != 0 && word >> UInt64(n & 63) != 0 { return false }
                    }
                    guard seen == expected else { return false }
                    continue
                }
                var d = -1
                while p < end {
                    let (gap, length) = PrefixVarint.read(raw, at: p)
                    guard gap > 0 || d < 0 else { return false }
                    d = max(d, 0) + Int(gap)
                    p += length
                    seen += 1
                }
                guard p == end, d < n, seen == expected else { return false }
            }
            return true
        }
    }
}
