/// Is document `n` in the set? A plain dense bitset over ordinals.
///
/// Used for deleted documents per segment (copy-on-write: a write copies the words it changes only
/// once per snapshot) and as the shape part 2's filters can intersect candidates with.
struct Bitset: Sendable, Equatable {
    private(set) var words: [UInt64]
    private(set) var count: Int

    init(capacity: Int) {
        words = [UInt64](repeating: 0, count: (capacity + 63) >> 6)
        count = 0
    }

    init(words: [UInt64]) {
        self.words = words
        count = words.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    @inline(__always)
    func contains(_ n: Int) -> Bool {
        let w = n >> 6
        return w < words.count && words[w] & (1 << UInt64(n & 63)) != 0
    }

    /// Calls `body` with each ordinal below `n` not in the set, ascending, reading 64 at a time.
    @inline(__always)
    func forEachAbsent(below n: Int, _ body: (Int) -> Void) {
        for w in 0..<(n + 63) >> 6 {
            var bits = ~(w < words.count ? words[w] : 0)
            if (w + 1) << 6 > n { bits &= (1 << UInt64(n & 63)) &- 1 }
            while bits != 0 {
                body(w << 6 + bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }

    /// Calls `body` with each ordinal in the set but not in `earlier`, ascending: what was inserted since
    /// `earlier`, a copy of this set before.
    func forEachInserted(since earlier: Bitset, _ body: (Int) -> Void) {
        for (w, word) in words.enumerated() {
            var added = word & ~(w < earlier.words.count ? earlier.words[w] : 0)
            while added != 0 {
                body(w << 6 + added.trailingZeroBitCount)
                added &= added &- 1
            }
        }
    }

    mutating func insert(_ n: Int) {
        let w = n >> 6
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w + 1 - words.count)) }
        let bit: UInt64 = 1 << UInt64(n & 63)
        if words[w] & bit == 0 { words[w] |= bit; count += 1 }
    }
}
