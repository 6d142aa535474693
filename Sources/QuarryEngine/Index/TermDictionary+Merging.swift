extension TermDictionary {
    /// The sorted union of `parts` and, per part, the merged id of each of its terms. A merge of segments
    /// takes its dictionary from here: the parts are sorted already, so merging them costs a look at each
    /// part's current term per term, where interning every term and sorting them again cost a quarter of the
    /// merge. The parts' terms are read laid end to end, each with its first 8 bytes as one big-endian
    /// number (`TermOrder.key`), which orders most pairs of terms in one comparison: a heap of parts
    /// comparing bytes through each part (retaining its arrays per comparison) took a fifth of a merge of
    /// 8 segments of 1,000 (`engine-bench merge`).
    static func merging(_ parts: [TermDictionary]) -> (TermDictionary, [[UInt32]]) {
        var maps = parts.map { [UInt32](repeating: 0, count: $0.count) }
        var bytes: [UInt8] = []
        var offsets: [UInt32] = [0]
        bytes.reserveCapacity(parts.map(\.bytes.count).max() ?? 0)
        offsets.reserveCapacity((parts.map(\.count).max() ?? 0) + 1)
        // Term `t` of part `p` is term `first[p] + t` of the parts laid end to end: its bytes are
        // `bounds[g]..<bounds[g + 1]` of `all`, and `keys[g]` its first 8 (zeros past its end).
        let all = Array(concatenating: parts.map(\.bytes))
        var bounds: [Int] = [], first: [Int] = [], byteBase = 0
        for part in parts {
            first.append(bounds.count)
            bounds.append(contentsOf: part.offsets.dropLast().map { byteBase + Int($0) })
            byteBase += part.bytes.count
        }
        bounds.append(byteBase)
        let ends = Array(first.dropFirst()) + [bounds.count - 1]
        let keys = all.withUnsafeBufferPointer { all in
            (0..<bounds.count - 1).map { g in TermOrder.key(all, bounds[g], bounds[g + 1]) }
        }
        all.withUnsafeBufferPointer { all in
            bounds.withUnsafeBufferPointer { bounds in
                keys.withUnsafeBufferPointer { keys in
                    // Bytewise three-way comparison of terms `a` and `b`; their keys decide unless equal.
                    func compare(_ a: Int, _ b: Int) -> Int {
                        if keys[a] != keys[b] { return keys[a] < keys[b] ? -1 : 1 }
                        let sa = bounds[a], sb = bounds[b]
                        return TermOrder.compare(sameKey: all, sa, bounds[a + 1] - sa, sb, bounds[b + 1] - sb)
                    }
                    var cursor = first
                    var previous = -1
                    while true {
                        // The least current term; among equal ones the earliest part's, so equal terms are
                        // taken in part order.
                        var least = -1
                        for part in parts.indices where cursor[part] < ends[part] {
                            if least < 0 || compare(cursor[part], cursor[least]) < 0 { least = part }
                        }
                        guard least >= 0 else { break }
                        let term = cursor[least]
                        if previous < 0 || compare(previous, term) != 0 {
                            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: all[bounds[term]..<bounds[term + 1]]))
                            offsets.append(UInt32(bytes.count))
                        }
                        maps[least][term - first[least]] = UInt32(offsets.count - 2)
                        previous = term
                        cursor[least] += 1
                    }
                }
            }
        }
        return (TermDictionary(bytes: bytes, offsets: offsets), maps)
    }
}
