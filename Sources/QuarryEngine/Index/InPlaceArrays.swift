/// An array a segment may read in place from a file (the index file, or a merge's spill file): what the
/// segment's `mappedBytes` counts and its `releaseResidentPages` lets go of, listed once for both.
protocol InPlaceArray {
    /// Bytes read in place (0 on the heap).
    var mappedBytes: Int { get }
    /// Unmaps the pages of the array when it is read in place; nothing on the heap.
    func releaseResidentPages()
}

extension StoredArray: InPlaceArray {}

extension NumberArray: InPlaceArray {
    func releaseResidentPages() {
        doubles.releaseResidentPages()
        floats.releaseResidentPages()
        integers.releaseResidentPages()
    }
}

/// A structure some of whose arrays a file may hold in place, listed once for what it counts and lets go of.
protocol InPlaceStructure {
    /// Every array of the structure that a file may hold in place.
    var inPlaceArrays: [any InPlaceArray] { get }
}

extension InPlaceStructure {
    /// Bytes of these arrays read in place from a file.
    var mappedBytes: Int { inPlaceArrays.reduce(0) { $0 + $1.mappedBytes } }

    /// Unmaps the pages of every array read in place.
    func releaseResidentPages() {
        for array in inPlaceArrays { array.releaseResidentPages() }
    }
}

/// A merge or a save reads a segment's arrays whole, and a file stays mapped until its last segment is dropped,
/// so after a merge they would stay resident, unread, until the next save (about 140 MiB of postings and
/// positions after a 512,000-document merge, and the parts' facets, sort values and ids a merge reads beside
/// them): both let go of them (`releaseResidentPages`).
extension Segment: InPlaceStructure {
    var inPlaceArrays: [any InPlaceArray] {
        var arrays: [any InPlaceArray] = [docIDs, sortValues, lookup, dictionary.bytes, dictionary.offsets, postings.offsets,
                                          postings.starts, postings.bytes, postings.lowestScores, positions.starts,
                                          positions.bytes, positions.terms]
        for column in facets.columns { arrays += column.inPlaceArrays }
        for column in facets.numeric { arrays += column.inPlaceArrays }
        arrays += prefixSets.entries.values.map { $0.levels.words as any InPlaceArray }
        arrays += [facets.geo.starts, facets.geo.latitudes, facets.geo.longitudes] as [any InPlaceArray]
        return arrays
    }
}

/// A merge lets go of each column once read.
extension FacetColumn: InPlaceStructure {
    var inPlaceArrays: [any InPlaceArray] {
        [starts, ids, singles, valueDocuments.starts, valueDocuments.offsets, valueDocuments.bytes]
    }
}

extension NumericColumn: InPlaceStructure {
    var inPlaceArrays: [any InPlaceArray] { [starts, numbers] }
}
