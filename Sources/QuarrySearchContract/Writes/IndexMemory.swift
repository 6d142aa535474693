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
    /// Bytes read in place from the index file (document ids, the term dictionary, postings, token positions,
    /// numbers, sort keys, the id lookup, facet values and prefix sets of opened segments) or, until the next
    /// save, from a large merge's spill files (its postings and token positions): in the kernel's page cache,
    /// resident in the daemon only as far as searches touch them.
    public var mapped: Int

    public init(structures: [(name: String, bytes: Int)], segments: Int, neighborRows: Int, neighborRowLimit: Int, mapped: Int) {
        self.structures = structures
        self.segments = segments
        self.neighborRows = neighborRows
        self.neighborRowLimit = neighborRowLimit
        self.mapped = mapped
    }

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
