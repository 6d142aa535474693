/// How a segment's prefix sets are saved after its facets: so that opening an index neither decodes
/// every posting to rebuild them nor holds the sets nobody types.
///
/// The entry count, then per entry (ascending by term range) its range's bounds, its lowest and
/// other scores in one word, and its levels' words.
extension PrefixSets {
    func write(to writer: inout BinaryWriter) {
        writer.write(UInt64(entries.count))
        for (terms, entry) in entries.sorted(by: { $0.key.lowerBound < $1.key.lowerBound }) {
            writer.write(UInt64(terms.lowerBound))
            writer.write(UInt64(terms.upperBound))
            writer.write(UInt64(entry.lowestScore) << 16 | UInt64(entry.otherScore))
            writer.write(array: entry.levels.words)
        }
    }

    /// Reads what `write` saved, checking each range against the dictionary's `termCount` terms and
    /// each set's levels against the segment's `documents`.
    static func read(from reader: inout BinaryReader, documents n: Int, termCount: Int) throws(DerivedIndexError) -> PrefixSets {
        let count = try reader.readInt(max: termCount)
        var entries: [Range<Int>: Entry] = [:]
        entries.reserveCapacity(count)
        let wordCount = DocumentLevels.wordCount(documents: n)
        for _ in 0..<count {
            let lower = try reader.readInt(max: termCount), upper = try reader.readInt(max: termCount)
            let scores = try reader.readInt(max: Int(UInt32.max))
            let levels = try reader.readStored(of: UInt64.self)
            guard lower < upper, entries[lower..<upper] == nil, levels.count == wordCount else { throw .corrupt("inconsistent prefix set for terms \(lower)..<\(upper)") }
            entries[lower..<upper] = Entry(levels: DocumentLevels(words: levels), lowestScore: UInt16(truncatingIfNeeded: scores >> 16),
                                           otherScore: UInt16(truncatingIfNeeded: scores))
        }
        return PrefixSets(entries: entries)
    }
}
