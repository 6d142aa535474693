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

    mutating func insert(_ n: Int) {
        let w = n >> 6
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w + 1 - words.count)) }
        let bit: UInt64 = 1 << UInt64(n & 63)
        if words[w] & bit == 0 { words[w] |= bit; count += 1 }
    }
}
