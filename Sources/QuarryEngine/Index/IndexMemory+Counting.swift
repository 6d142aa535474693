import QuarryJSON
import QuarrySearchContract

extension SearchIndex {
    /// The breakdown of this index's memory (cheap: counts, no traversal of postings or tokens).
    public func memory() -> IndexMemory {
        var documents = 0, dictionary = 0, postings = 0, positions = 0, facets = 0, numbers = 0
        var prefixes = 0, neighbors = 0, rows = 0, mapped = 0
        for segment in segments {
            mapped += segment.mappedBytes
            documents += MemorySize.array(segment.docIDs) + segment.sortValues.heapBytes
                + segment.sortRanks.reduce(0) { $0 + MemorySize.array($1) } + MemorySize.array(segment.lookup)
            dictionary += MemorySize.array(segment.dictionary.bytes) + MemorySize.array(segment.dictionary.offsets)
            postings += MemorySize.array(segment.postings.offsets) + MemorySize.array(segment.postings.starts)
                + MemorySize.array(segment.postings.bytes) + MemorySize.array(segment.postings.scoreValues)
                + MemorySize.array(segment.postings.lowestScores)
            positions += MemorySize.array(segment.positions.starts) + MemorySize.array(segment.positions.bytes)
                + MemorySize.array(segment.positions.terms) + MemorySize.array(segment.positions.codes)
            facets += segment.facets.columns.reduce(0) { $0 + $1.memoryBytes }
            numbers += segment.facets.numeric.reduce(0) { $0 + MemorySize.array($1.starts) + $1.numbers.heapBytes }
                + MemorySize.array(segment.facets.geo.starts) + MemorySize.array(segment.facets.geo.latitudes)
                + MemorySize.array(segment.facets.geo.longitudes)
            prefixes += segment.prefixSets.memoryBytes
            let kept = segment.neighbors.rowCount
            rows += kept
            neighbors += kept * (NeighborTables.rowBytes + 32)
                + MemorySize.table(count: kept, entryBytes: MemoryLayout<Int>.stride + MemoryLayout<[UInt8]>.stride)
        }
        let deleted = dead.reduce(0) { $0 + $1.memoryBytes }
        return IndexMemory(
            structures: [
                ("documents", documents), ("dictionary", dictionary), ("postings", postings), ("positions", positions),
                ("facets", facets), ("numbers", numbers), ("prefixSets", prefixes), ("neighborRows", neighbors),
                ("deleted", deleted),
            ],
            segments: segments.count, neighborRows: rows, neighborRowLimit: segments.count * NeighborTables.capacity,
            mapped: mapped)
    }
}

/// Byte counts of the containers the structures are made of.
enum MemorySize {
    static func array<T>(_ array: [T]) -> Int { array.count * MemoryLayout<T>.stride }

    /// Only what is on the heap: mapped elements are counted apart (`IndexMemory.mapped`).
    static func array<T>(_ array: StoredArray<T>) -> Int { array.heapBytes }

    /// A string's heap bytes: none up to 15 UTF-8 bytes (stored inline), else its bytes and a header.
    static func string(_ string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : count + 32
    }

    /// A hash table of `count` entries of `entryBytes` each, at Swift's 75% maximum load.
    static func table(count: Int, entryBytes: Int) -> Int { count == 0 ? 0 : count * (entryBytes + 1) * 4 / 3 }
}

extension FacetColumn {
    var memoryBytes: Int {
        var bytes = values.reduce(MemorySize.array(values)) { $0 + MemorySize.string($1) }
        bytes += MemorySize.array(numericFlags) + MemorySize.array(starts) + MemorySize.array(ids)
        bytes += MemorySize.array(byFoldedText)
        bytes += MemorySize.array(numbers) + MemorySize.array(valueDocuments.starts)
            + MemorySize.array(valueDocuments.offsets) + MemorySize.array(valueDocuments.bytes)
        bytes += MemorySize.array(textHashes) + MemorySize.array(textSlots)
        bytes += MemorySize.array(alphaRanks) + MemorySize.array(valueBits) + MemorySize.array(singles)
        return bytes
    }
}

extension PrefixSets {
    var memoryBytes: Int {
        let entryBytes = MemoryLayout<Range<Int>>.stride + MemoryLayout<Entry>.stride
        return MemorySize.table(count: entries.count, entryBytes: entryBytes) + entries.values.reduce(0) {
            $0 + $1.levels.words.heapBytes
        }
    }
}

extension Bitset {
    var memoryBytes: Int { MemorySize.array(words) }
}
