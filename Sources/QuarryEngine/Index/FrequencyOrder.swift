/// The order that gives a segment's terms their codes in its token positions (`DocumentPositions`): by
/// descending frequency, so that the most frequent terms take the shortest codes, ties by ascending id.
/// Builds and merges both code by it, so a merged segment is laid out as a build of its records would be.
///
/// Each term becomes one integer, its frequency's complement above its id, sorted as integers rather than
/// term indices compared through the frequency and id arrays: a build of 1,000 records took 3% less
/// (Benchmarks/RESULTS.md, "The commit beside the build's end, and other allocators"); by radix
/// (`RadixSort`) rather than by comparisons.
enum FrequencyOrder {
    /// The ids of terms `0..<frequency.count` (`ids[t]` for term `t`, `t` itself without `ids`; distinct),
    /// in the order of their `frequency`, descending, ties by ascending id.
    static func sorted(_ frequency: [UInt32], ids: [UInt32]? = nil) -> [UInt32] {
        var keys: [UInt64] = []
        keys.reserveCapacity(frequency.count)
        for (term, n) in frequency.enumerated() { keys.append(UInt64(~n) << 32 | UInt64(ids?[term] ?? UInt32(term))) }
        RadixSort.sort(&keys)
        return keys.map { UInt32(truncatingIfNeeded: $0) }
    }
}
