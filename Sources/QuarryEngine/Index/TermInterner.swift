/// Which id did this word get while a segment is being built?
///
/// An open-addressing hash table over a byte arena: interning a token costs a hash and usually one
/// comparison, with no allocation per token (a `Dictionary<[UInt8], _>` allocated per lookup key).
struct TermInterner {
    private(set) var bytes: [UInt8] = []
    /// `offsets[id]..<offsets[id + 1]` in `bytes`.
    private(set) var offsets: [UInt32] = [0]
    private var table: [Int32]
    private var hashes: [UInt32] = []

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        table = [Int32](repeating: -1, count: size)
    }

    var count: Int { offsets.count - 1 }

    mutating func intern(_ word: [UInt8]) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for b in word { hash = (hash ^ UInt32(b)) &* 16_777_619 }
        let mask = table.count - 1
        var slot = Int(hash) & mask
        while true {
            let id = Int(table[slot])
            if id < 0 { break }
            if hashes[id] == hash && equals(id, word) { return UInt32(id) }
            slot = (slot + 1) & mask
        }
        let id = count
        table[slot] = Int32(id)
        hashes.append(hash)
        bytes.append(contentsOf: word)
        offsets.append(UInt32(bytes.count))
        if count * 2 > table.count { grow() }
        return UInt32(id)
    }

    private func equals(_ id: Int, _ word: [UInt8]) -> Bool {
        let start = Int(offsets[id]), end = Int(offsets[id + 1])
        guard end - start == word.count else { return false }
        var i = 0
        while i < word.count { if bytes[start + i] != word[i] { return false }; i += 1 }
        return true
    }

    private mutating func grow() {
        var table = [Int32](repeating: -1, count: self.table.count * 2)
        let mask = table.count - 1
        for id in 0..<count {
            var slot = Int(hashes[id]) & mask
            while table[slot] >= 0 { slot = (slot + 1) & mask }
            table[slot] = Int32(id)
        }
        self.table = table
    }

    func term(_ id: Int) -> ArraySlice<UInt8> { bytes[Int(offsets[id])..<Int(offsets[id + 1])] }
}
