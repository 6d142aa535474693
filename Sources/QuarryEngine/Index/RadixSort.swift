/// Sorts 64-bit keys one byte a pass, least significant first, each pass stable: for the small sorts at
/// the end of a batch's build (its dictionary, its token codes by frequency), where the writer waits, a
/// comparison sort took about three times as long (Benchmarks/RESULTS.md, "Writes share a trim, carry a
/// running merge, and sort by radix"). The bytes every key has alike (the padding of short terms, the
/// high bytes of small counts) take no pass.
enum RadixSort {
    /// Sorts `keys` ascending.
    static func sort(_ keys: inout [UInt64]) {
        var none: [UInt32] = []
        sort(&keys, ids: &none)
    }

    /// Sorts `keys` ascending, moving `ids` (as many) along; equal keys keep their order.
    static func sort(_ keys: inout [UInt64], carrying ids: inout [UInt32]) {
        precondition(ids.count == keys.count, "one id a key")
        sort(&keys, ids: &ids)
    }

    /// `ids` empty, or one a key.
    private static func sort(_ keys: inout [UInt64], ids: inout [UInt32]) {
        let count = keys.count
        guard count > 1 else { return }
        var histograms = [Int](repeating: 0, count: 8 * 256)
        var otherKeys = [UInt64](repeating: 0, count: count), otherIDs = [UInt32](repeating: 0, count: ids.count)
        histograms.withUnsafeMutableBufferPointer { histograms in
            keys.withUnsafeBufferPointer { keys in
                for key in keys {
                    for byte in 0..<8 { histograms[byte << 8 | Int(truncatingIfNeeded: key >> UInt64(byte << 3)) & 0xFF] += 1 }
                }
            }
            for byte in 0..<8 {
                let shift = UInt64(byte << 3), base = byte << 8
                if histograms[base | Int(truncatingIfNeeded: keys[0] >> shift) & 0xFF] == count { continue }
                var next = 0
                for digit in 0..<256 {
                    let n = histograms[base | digit]
                    histograms[base | digit] = next
                    next += n
                }
                keys.withUnsafeBufferPointer { keys in
                    ids.withUnsafeBufferPointer { ids in
                        otherKeys.withUnsafeMutableBufferPointer { toKeys in
                            otherIDs.withUnsafeMutableBufferPointer { toIDs in
                                let carried = !ids.isEmpty
                                for i in 0..<count {
                                    let key = keys[i]
                                    let slot = base | Int(truncatingIfNeeded: key >> shift) & 0xFF
                                    let at = histograms[slot]
                                    histograms[slot] = at + 1
                                    toKeys[at] = key
                                    if carried { toIDs[at] = ids[i] }
                                }
                            }
                        }
                    }
                }
                swap(&keys, &otherKeys)
                swap(&ids, &otherIDs)
            }
        }
    }
}
