#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which id did this word get while a segment is being built?
///
/// An open-addressing hash table over a byte arena: interning a token costs a hash and usually one
/// comparison, with no allocation per token (a `Dictionary<[UInt8], _>` allocated per lookup key).
struct TermInterner {
    private(set) var bytes: [UInt8] = []
    /// `offsets[id]..<offsets[id + 1]` in `bytes`.
    private(set) var offsets: [UInt32] = [0]
    /// `hash << 32 | (id + 1)`, 0 for an empty slot: a probe reads the hash
    /// from the slot it already loaded, so a miss costs no other memory access.
    private var table: [UInt64]

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        table = [UInt64](repeating: 0, count: size)
    }

    var count: Int { offsets.count - 1 }

    mutating func intern(_ word: [UInt8]) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for b in word { hash = (hash ^ UInt32(b)) &* 16_777_619 }
        let mask = table.count - 1
        var slot = Int(hash) & mask
        while true {
            let entry = table[slot]
            if entry == 0 { break }
            if UInt32(truncatingIfNeeded: entry >> 32) == hash {
                let id = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if equals(id, word) { return UInt32(id) }
            }
            slot = (slot + 1) & mask
        }
        let id = count
        table[slot] = UInt64(hash) << 32 | UInt64(id + 1)
        bytes.append(contentsOf: word)
        offsets.append(UInt32(bytes.count))
        if count * 2 > table.count { grow() }
        return UInt32(id)
    }

    private func equals(_ id: Int, _ word: [UInt8]) -> Bool {
        let start = Int(offsets[id]), end = Int(offsets[id + 1])
        guard end - start == word.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            word.withUnsafeBufferPointer { key in
                guard let a = all.baseAddress, let b = key.baseAddress else { return key.isEmpty }
                return memcmp(a + start, b, key.count) == 0
            }
        }
    }

    private mutating func grow() {
        var table = [UInt64](repeating: 0, count: self.table.count * 2)
        let mask = table.count - 1
        for entry in self.table where entry != 0 {
            var slot = Int(entry >> 32) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = entry
        }
        self.table = table
    }

    func term(_ id: Int) -> ArraySlice<UInt8> { bytes[Int(offsets[id])..<Int(offsets[id + 1])] }
}
