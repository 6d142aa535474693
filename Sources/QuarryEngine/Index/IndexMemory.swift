import QuarryJSON

/// Where an index's memory goes: the bytes of each in-memory search structure, summed over its segments,
/// and apart from them the bytes read in place from its file.
///
/// Counted from the structures' element counts (a hash table's entries at its load factor, a string's
/// bytes past the 15 stored inline), so it is what the index holds, not what the allocator rounds it to.
/// Records are not in memory: they are read from SQLite, whose page cache is bounded per reader.
public struct IndexMemory: Sendable, Equatable {
    /// Named byte counts, in a fixed order.
    public var structures: [(name: String, bytes: Int)]
    public var segments: Int
    /// Rows of `NeighborTables` kept, and the most that may be (a bound per segment).
    public var neighborRows: Int
    public var neighborRowLimit: Int
    /// Bytes read in place from the index file (document ids, postings, token positions, numbers, sort
    /// keys, the id lookup, facet values and prefix sets of opened segments): in the kernel's page cache,
    /// resident in the daemon only as far as searches touch them.
    public var mapped: Int

    public var total: Int { structures.reduce(0) { $0 + $1.bytes } }

    public func json() -> JSONObject {
        var bytes: JSONObject = [:]
        for structure in structures { bytes[structure.name] = JSON(structure.bytes) }
        return [
            "total": JSON(total), "segments": JSON(segments), "structures": .object(bytes),
            "neighborRows": JSON(neighborRows), "neighborRowLimit": JSON(neighborRowLimit), "mapped": JSON(mapped),
        ]
    }

    public static func == (a: IndexMemory, b: IndexMemory) -> Bool {
        a.structures.elementsEqual(b.structures) { $0.name == $1.name && $0.bytes == $1.bytes }
            && a.segments == b.segments && a.neighborRows == b.neighborRows && a.neighborRowLimit == b.neighborRowLimit && a.mapped == b.mapped
    }
}

extension SearchIndex {
    /// The breakdown of this index's memory (cheap: counts, no traversal of postings or tokens).
    public func memory() -> IndexMemory {
        var documents = 0, dictionary = 0, postings = 0, positions = 0, facets = 0, numbers = 0
        var prefixes = 0, neighbors = 0, rows = 0, mapped = 0
        for segment in segments {
            mapped += segment.mappedBytes
            documents += MemorySize.array(segment.docIDs) + MemorySize.array(segment.sortValues)
                + segment.sortRanks.reduce(0) { $0 + MemorySize.array($1) } + MemorySize.array(segment.lookup)
            dictionary += MemorySize.array(segment.dictionary.bytes) + MemorySize.array(segment.dictionary.offsets)
            postings += MemorySize.array(segment.postings.offsets) + MemorySize.array(segment.postings.starts)
                + MemorySize.array(segment.postings.bytes) + MemorySize.array(segment.postings.scoreValues)
                + MemorySize.array(segment.postings.lowestScores)
            positions += MemorySize.array(segment.positions.starts) + MemorySize.array(segment.positions.bytes)
                + MemorySize.array(segment.positions.terms) + MemorySize.array(segment.positions.codes)
            facets += segment.facets.columns.reduce(0) { $0 + $1.memoryBytes }
            numbers += segment.facets.numeric.reduce(0) { $0 + MemorySize.array($1.starts) + MemorySize.array($1.values) }
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

extension Segment {
    /// Bytes of this segment's arrays read in place from its file.
    var mappedBytes: Int {
        var bytes = docIDs.mappedBytes + sortValues.mappedBytes + lookup.mappedBytes + postings.bytes.mappedBytes + positions.bytes.mappedBytes
        bytes += facets.numeric.reduce(0) { $0 + $1.starts.mappedBytes + $1.values.mappedBytes }
        bytes += facets.columns.reduce(0) { $0 + $1.starts.mappedBytes + $1.ids.mappedBytes + $1.valueDocs.mappedBytes }
        bytes += prefixSets.entries.values.reduce(0) { $0 + $1.levels.words.mappedBytes }
        bytes += facets.geo.starts.mappedBytes + facets.geo.latitudes.mappedBytes + facets.geo.longitudes.mappedBytes
        return bytes
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
        bytes += MemorySize.array(byText) + MemorySize.array(byFoldedText)
        bytes += MemorySize.array(numbers) + MemorySize.array(valueStarts) + MemorySize.array(valueDocs)
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
