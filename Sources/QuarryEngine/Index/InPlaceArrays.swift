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

extension Segment {
    /// Every array of the segment that a file may hold in place.
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

    /// Bytes of this segment's arrays read in place from its file.
    var mappedBytes: Int { inPlaceArrays.reduce(0) { $0 + $1.mappedBytes } }

    /// Unmaps the pages of every array read in place: a merge or a save reads them whole, and a file stays
    /// mapped until its last segment is dropped, so after a merge they would stay resident, unread, until
    /// the next save (about 140 MiB of postings and positions after a 512,000-document merge, and the
    /// parts' facets, sort values and ids a merge reads beside them).
    func releaseResidentPages() {
        for array in inPlaceArrays { array.releaseResidentPages() }
    }
}

extension FacetColumn {
    var inPlaceArrays: [any InPlaceArray] {
        [starts, ids, singles, valueDocuments.starts, valueDocuments.offsets, valueDocuments.bytes]
    }

    /// Unmaps the pages of the column's arrays read in place (a merge lets go of each column once read).
    func releaseResidentPages() {
        for array in inPlaceArrays { array.releaseResidentPages() }
    }
}

extension NumericColumn {
    var inPlaceArrays: [any InPlaceArray] { [starts, numbers] }

    func releaseResidentPages() {
        for array in inPlaceArrays { array.releaseResidentPages() }
    }
}
