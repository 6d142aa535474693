import CPrefetch

/// A segment's tokens as a builder gathered them, with where each document and term goes.
///
/// Documents are in arrival order and terms are interned ids; `order` lists old documents by their
/// ordinal in the segment and `sortedTerm` gives each interned id its place in the sorted dictionary.
/// Postings and positions are laid out by reading through both maps: copying the tokens into
/// segment order first took 0.7 s and 276 MB at 1M records.
struct SegmentTokens: Sendable {
    /// `starts[d]..<starts[d + 1]` index old document `d`'s tokens.
    let starts: [UInt32]
    let terms: [UInt32]
    let locations: [UInt16]
    /// Old document by ordinal.
    let order: [Int]
    /// Sorted term id by interned id.
    let sortedTerm: [UInt32]

    init(starts: [UInt32], terms: [UInt32], locations: [UInt16], order: [Int], sortedTerm: [UInt32]) {
        self.starts = starts
        self.terms = terms
        self.locations = locations
        self.order = order
        self.sortedTerm = sortedTerm
    }

    /// Tokens already in segment order with sorted term ids.
    init(starts: [UInt32], terms: [UInt32], locations: [UInt16], termCount: Int) {
        self.init(starts: starts, terms: terms, locations: locations, order: Array(0..<max(starts.count - 1, 0)),
                  sortedTerm: (0..<termCount).map { UInt32($0) })
    }

    var documentCount: Int { order.count }
    var termCount: Int { sortedTerm.count }

    /// Calls `body(ordinal, tokens)` for each document in segment order, `tokens` indexing `terms`
    /// and `locations`. Documents come in an order unrelated to where their tokens are, so the tokens
    /// of the document a few places ahead are prefetched.
    @inline(__always)
    func forEachDocument(_ body: (Int, Range<Int>) -> Void) {
        forEachDocument(in: 0..<documentCount, body)
    }

    /// `forEachDocument` over the documents of `ordinals` only.
    @inline(__always)
    func forEachDocument(in ordinals: Range<Int>, _ body: (Int, Range<Int>) -> Void) {
        let ahead = 4
        starts.withUnsafeBufferPointer { starts in
            terms.withUnsafeBufferPointer { terms in
                locations.withUnsafeBufferPointer { locations in
                    guard let termBase = terms.baseAddress, let locationBase = locations.baseAddress else {
                        for ordinal in ordinals { body(ordinal, Int(starts[order[ordinal]])..<Int(starts[order[ordinal] + 1])) }
                        return
                    }
                    for ordinal in ordinals {
                        let old = order[ordinal]
                        if ordinal + ahead < ordinals.upperBound {
                            let next = Int(starts[order[ordinal + ahead]])
                            quarry_prefetch(termBase + next)
                            quarry_prefetch(locationBase + next)
                        }
                        body(ordinal, Int(starts[old])..<Int(starts[old + 1]))
                    }
                }
            }
        }
    }
}
