import QuarryJSON
import QuarryText
import QuarrySearchContract

/// How do records become a `Segment`?
///
/// Records are added in any order, tokenised slot by slot and their terms interned; `finish()` sorts
/// terms and documents and lays out postings. (Segments merge without their records: `SegmentMerge`.)
struct SegmentBuilder {
    let layout: SearchableLayout
    let order: StaticOrder
    private var interner = TermInterner(capacity: 4096)
    private var tokenizer = Tokenizer()
    private var docIDs: [DocID] = []
    private var values: [Double] = []
    private var tokenStarts: [UInt32] = [0]
    private var tokenTerms: [UInt32] = []
    private var tokenLocations: [UInt16] = []
    /// Filter, facet, distinct and geo values (see `SegmentFacets`).
    private var facets: SegmentFacetsBuilder
    /// Set when records' facet values are gathered on a thread of their own.
    private var facetsAlongside: FacetsAlongside?

    /// `facetsOnOwnThread` suits a large build from records.
    init(layout: SearchableLayout, order: StaticOrder, facets: FacetLayout = FacetLayout(attributes: []),
         facetsOnOwnThread: Bool = false) {
        self.layout = layout
        self.order = order
        self.facets = SegmentFacetsBuilder(layout: facets)
        if facetsOnOwnThread { facetsAlongside = FacetsAlongside(self.facets) }
    }

    /// A large build's, from records: facet values gathered on a thread of their own.
    init(settings: IndexSettings) {
        self.init(layout: SearchableLayout(settings: settings), order: StaticOrder(settings: settings),
                  facets: FacetLayout(settings: settings), facetsOnOwnThread: true)
    }

    /// Documents added so far.
    private(set) var count = 0

    /// Marks a location whose attribute has typo tolerance disabled.
    static let typoDisabledBit: UInt16 = 1 << 15

    mutating func add(docID: DocID, record: JSONObject) {
        docIDs.append(docID)
        add(record: record)
    }

    /// Adds a record whose docID is not known yet, to be laid out by `layOutAhead`.
    mutating func add(record: JSONObject) {
        count += 1
        values.append(contentsOf: order.values(of: record))
        if let facetsAlongside { facetsAlongside.add(record: record) } else { facets.add(record: record) }
        var currentSlot = -1
        var position = 0
        layout.forEachValue(of: record) { slot, name, leaf in
            guard let text = SearchableLayout.text(of: leaf) else { return }
            if slot != currentSlot {
                currentSlot = slot
                position = 0
            } else {
                position += Location.elementGap
            }
            let flag = layout.typoDisabledAttributes.contains(name) ? Self.typoDisabledBit : 0
            tokenizer.forEachWord(in: text) { word, _, _ in
                tokenTerms.append(interner.intern(word))
                tokenLocations.append(Location.make(slot: slot, position: position) | flag)
                position += 1
            }
        }
        tokenStarts.append(UInt32(tokenTerms.count))
    }

    /// Sorts terms and documents and lays the segment out, its postings and token positions in files of
    /// `spillDirectory` when given (`SpillFile`). Hands the builder's tokens to the layout, which frees them,
    /// so the builder is spent afterwards.
    mutating func finish(spillDirectory: String? = nil) -> Segment {
        layOut(ranking: docIDs, spillDirectory: spillDirectory).segment(docIDs: docIDs)
    }

    /// Lays the segment out as `finish` does before the records added by `add(record:)` have docIDs,
    /// breaking ties as if they rose with the records, as the docIDs of a batch of new records do.
    mutating func layOutAhead(spillDirectory: String? = nil) -> Layout {
        layOut(ranking: (0..<count).map { DocID(truncatingIfNeeded: $0) }, spillDirectory: spillDirectory)
    }

    /// A segment but for its docIDs: its documents in static order, their postings, positions and facets.
    struct Layout {
        let order: StaticOrder
        let values: [Double]
        let permutation: [Int]
        let dictionary: TermDictionary
        let postings: Postings
        let positions: DocumentPositions
        let facets: SegmentFacets

        /// True when `ids` rank the documents as the layout does: always when they rise with the records.
        func ranks(_ ids: [DocID]) -> Bool {
            zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }
                || SegmentBuilder.staticPermutation(ids: ids, values: values, order: order) == permutation
        }

        /// The segment, the documents' docIDs `ids` (one a record, in the order they were added).
        func segment(docIDs ids: [DocID]) -> Segment {
            SegmentBuilder.segment(docIDs: ids, values: values, permutation: permutation, order: order,
                                   dictionary: dictionary, postings: postings, positions: positions, facets: facets)
        }
    }

    /// The layout of the documents ranked in static order with `ids` breaking ties.
    private mutating func layOut(ranking ids: [DocID], spillDirectory: String?) -> Layout {
        let permutation = Self.staticPermutation(ids: ids, values: values, order: order)
        let (dictionary, termRemap) = sortedDictionary()
        // Only now: the facets thread, behind the tokens by a batch or two, catches up meanwhile.
        if let facetsAlongside {
            facets = facetsAlongside.finish()
            self.facetsAlongside = nil
        }
        let (postings, positions, facetsBeside) = layOut(permutation: permutation, termRemap: termRemap,
                                                         spillDirectory: spillDirectory)
        return Layout(order: order, values: values, permutation: permutation, dictionary: dictionary,
                      postings: postings, positions: positions,
                      facets: facetsBeside ?? facets.finish(permutation: permutation))
    }

    /// A segment of documents given in any order (`docIDs`, and `values` of `order`'s keys), put in
    /// static order by `permutation`, with the structures already laid out in that order.
    static func segment(docIDs: [DocID], values: [Double], permutation: [Int], order: StaticOrder, dictionary: TermDictionary,
                        postings: Postings, positions: DocumentPositions, facets: SegmentFacets) -> Segment {
        let (ordered, orderedValues) = reordered(docIDs: docIDs, values: values, by: permutation, keyCount: order.keys.count)
        return segment(ordered: ordered, values: orderedValues, order: order, dictionary: dictionary, postings: postings,
                       positions: positions, facets: facets)
    }

    /// `docIDs` and their `keyCount` values each in the order `permutation` gives.
    static func reordered(docIDs: [DocID], values: [Double], by permutation: [Int], keyCount: Int) -> ([DocID], [Double]) {
        var newDocIDs = [DocID](), newValues = [Double]()
        newDocIDs.reserveCapacity(docIDs.count)
        newValues.reserveCapacity(values.count)
        for old in permutation {
            newDocIDs.append(docIDs[old])
            newValues.append(contentsOf: values[old * keyCount..<(old + 1) * keyCount])
        }
        return (newDocIDs, newValues)
    }

    /// A segment of documents already in static order, with the structures laid out in that order.
    static func segment(ordered docIDs: [DocID], values: [Double], order: StaticOrder, dictionary: TermDictionary,
                        postings: Postings, positions: DocumentPositions, facets: SegmentFacets) -> Segment {
        let keyCount = order.keys.count
        let sortRanks = order.sortCriterionKeys.map { key in
            denseRanks(values: values, keyCount: keyCount, key: key, order: order)
        }
        // Sorted in place: a sorted copy held the keys twice (8 MiB a million documents).
        var keys = docIDs.enumerated().map { UInt64($0.element) << 32 | UInt64($0.offset) }
        keys.sort()
        let lookup = keys.map { UInt32(truncatingIfNeeded: $0) }
        keys = []
        let segment = Segment(docIDs: StoredArray(docIDs), sortValues: NumberArray(values), keyCount: keyCount, sortRanks: sortRanks,
                              dictionary: dictionary, postings: postings, positions: positions, lookup: StoredArray(lookup),
                              facets: facets, prefixSets: PrefixSets(dictionary: dictionary, postings: postings, documents: docIDs.count))
        // A large merge's postings are read from its spill file (`SpillFile`): the walk above needs them no more.
        postings.bytes.releaseResidentPages()
        return segment
    }

    /// Postings and positions from the builder's tokens, read in segment order through `permutation`
    /// and `termRemap`. The builder's tokens are handed over, so they are freed when the layout ends.
    /// Under `PostingsLayout.splitFrom` documents, the facet values in that order too, laid out beside
    /// them: a batch's postings take one thread, and a core waited. A larger build splits its postings
    /// across the cores already, and its facets beside them only raised its peak (Benchmarks/RESULTS.md,
    /// "Facets laid out beside a batch's postings"): nil, and the caller lays them out once the tokens are freed.
    private mutating func layOut(permutation: [Int], termRemap: [UInt32], spillDirectory: String?)
        -> (Postings, DocumentPositions, SegmentFacets?) {
        let documents = count
        let tokens = SegmentTokens(starts: tokenStarts, terms: tokenTerms, locations: tokenLocations,
                                   order: permutation, sortedTerm: termRemap)
        tokenStarts = []
        tokenTerms = []
        tokenLocations = []
        // Postings and positions are laid out from the same tokens, independently: one thread each.
        let layout = self.layout
        let tokensLaidOut = { @Sendable in
            Parallel.both(documents: documents,
                          { PostingsLayout.postings(tokens, layout: layout, spill: spillDirectory.flatMap(SpillFile.init)) },
                          { DocumentPositions(tokens, spill: spillDirectory.flatMap(SpillFile.init)) })
        }
        guard documents < PostingsLayout.splitFrom else {
            let (postings, positions) = tokensLaidOut()
            return (postings, positions, nil)
        }
        let facets = self.facets
        let ((postings, positions), ordered) = Parallel.both(documents: documents, tokensLaidOut,
                                                             { facets.finish(permutation: permutation) })
        return (postings, positions, ordered)
    }

    /// Old document indices in static order; the docID breaks ties, so a document's place never depends
    /// on which segment or batch it arrived in (`updating()` then ranks exactly as `build()`).
    static func staticPermutation(ids: [DocID], values: [Double], order: StaticOrder) -> [Int] {
        let keyCount = order.keys.count
        guard keyCount > 0 else {
            if zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) { return Array(0..<ids.count) }
            return Array(0..<ids.count).sorted { ids[$0] < ids[$1] }
        }
        return Array(0..<ids.count).sorted { a, b in
            let c = order.compare(values[a * keyCount..<(a + 1) * keyCount],
                                  values[b * keyCount..<(b + 1) * keyCount], keys: 0..<keyCount)
            return c != 0 ? c < 0 : ids[a] < ids[b]
        }
    }

    /// The sorted dictionary and, per interned id, its sorted id.
    private func sortedDictionary() -> (TermDictionary, [UInt32]) {
        let termCount = interner.count
        let bytes = interner.bytes, offsets = interner.offsets
        let sorted = TermOrder.sorted(bytes: bytes, offsets: offsets, count: termCount)
        var remap = [UInt32](repeating: 0, count: termCount)
        var newBytes = [UInt8](), newOffsets: [UInt32] = [0]
        newBytes.reserveCapacity(bytes.count)
        newOffsets.reserveCapacity(termCount + 1)
        for (newID, old) in sorted.enumerated() {
            remap[Int(old)] = UInt32(newID)
            newBytes.append(contentsOf: bytes[Int(offsets[Int(old)])..<Int(offsets[Int(old) + 1])])
            newOffsets.append(UInt32(newBytes.count))
        }
        return (TermDictionary(bytes: newBytes, offsets: newOffsets), remap)
    }

    static func denseRanks(values: [Double], keyCount: Int, key: Int, order: StaticOrder) -> [UInt32] {
        let count = keyCount == 0 ? 0 : values.count / keyCount
        let sorted = Array(0..<count).sorted {
            order.compare(values[$0 * keyCount + key], values[$1 * keyCount + key], key: key) < 0
        }
        var ranks = [UInt32](repeating: 0, count: count)
        var rank: UInt32 = 0
        for (i, doc) in sorted.enumerated() {
            if i > 0 && order.compare(values[sorted[i - 1] * keyCount + key], values[doc * keyCount + key], key: key) != 0 {
                rank += 1
            }
            ranks[doc] = rank
        }
        return ranks
    }
}
