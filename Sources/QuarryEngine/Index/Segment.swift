/// One immutable slice of an index: a set of documents and every structure a search reads for them.
///
/// Ordinals (0..<count) are assigned in static order (`asc`/`desc` criteria then `customRanking`), so
/// among equally relevant documents the lower ordinal wins, and ordinal order *is* the custom ranking
/// within the segment. An index is one large segment plus small ones appended by writes (see `SearchIndex`).
///
/// A class, as `FacetColumn` is: searches copy segments as they walk an index's list, and a struct's copy
/// retained each of its arrays on counts every concurrent search shares.
final class Segment: Sendable {
    /// External id by ordinal: read for a page's hits and ties only, so left in the file when opened.
    let docIDs: StoredArray<DocID>
    /// `StaticOrder` values, `keyCount` per ordinal.
    let sortValues: NumberArray
    let keyCount: Int
    /// Per `asc`/`desc` ranking criterion: dense rank of each ordinal's value (0 best, missing last).
    let sortRanks: [[UInt32]]
    let dictionary: TermDictionary
    let postings: Postings
    let positions: DocumentPositions
    /// The ordinals sorted by their docIDs: finds a document's ordinal without a hash map, in 4 bytes a
    /// document (lookups come from writes and deletions, not keystrokes).
    let lookup: StoredArray<UInt32>
    /// Values for filters, facets, distinct and geo.
    let facets: SegmentFacets
    /// Documents per short, frequent prefix (large segments only); built from the postings, saved with the segment.
    let prefixSets: PrefixSets
    /// Lazily filled, for `ProximityBound`.
    let neighbors = NeighborTables()

    init(docIDs: StoredArray<DocID>, sortValues: NumberArray, keyCount: Int, sortRanks: [[UInt32]], dictionary: TermDictionary,
         postings: Postings, positions: DocumentPositions, lookup: StoredArray<UInt32>, facets: SegmentFacets,
         prefixSets: PrefixSets) {
        self.docIDs = docIDs
        self.sortValues = sortValues
        self.keyCount = keyCount
        self.sortRanks = sortRanks
        self.dictionary = dictionary
        self.postings = postings
        self.positions = positions
        self.lookup = lookup
        self.facets = facets
        self.prefixSets = prefixSets
    }

    var count: Int { docIDs.count }

    /// Tells this segment from any other: how a merge made off the write path finds its segments again
    /// in a later snapshot.
    var identity: ObjectIdentifier { ObjectIdentifier(self) }

    func ordinal(of docID: DocID) -> Int? {
        var lo = 0, hi = lookup.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if docIDs[Int(lookup[mid])] < docID { lo = mid + 1 } else { hi = mid }
        }
        guard lo < lookup.count, docIDs[Int(lookup[lo])] == docID else { return nil }
        return Int(lookup[lo])
    }

    func values(of ordinal: Int) -> Slice<NumberArray> {
        sortValues[ordinal * keyCount..<(ordinal + 1) * keyCount]
    }
}
