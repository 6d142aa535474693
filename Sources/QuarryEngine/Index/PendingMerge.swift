import QuarrySync

/// A write's own merge of its newest segments, running on a thread of its own beside the next write
/// instead of before the reply (ARCHITECTURE.md, "Segments and merges"). The index that started it
/// carries it (`SearchIndex.pending`) and searches read its unmerged segments until it swaps itself in
/// (`whenDone`); the next write waits for it only when it comes to its own merge policy, after its
/// records were stored and built.
///
/// It holds the merged parts and their deleted documents, not the index, so that the index holding it
/// is not kept alive by its own merge. The result is valid only where the parts lie with the deleted
/// documents the merge left out: an index derived from the one carrying it settles it first (a write:
/// `SearchIndex.settled()`), carries it where those segments stay as they were (`rebasing` a merge of
/// older segments, `adopting` a saved file's), or drops it.
struct PendingMerge: Sendable {
    /// Where the parts lie among the segments of the index that carries it.
    let range: Range<Int>
    private let result: Eventual<Segment>

    init(parts: [Segment], dead: [Bitset], range: Range<Int>, order: StaticOrder, facets: FacetLayout) {
        self.range = range
        let result = Eventual<Segment>()
        self.result = result
        // A write's thread is lowered, and this one inherits its nice value (`BackgroundThread`).
        DetachedThread.startOrFail(name: "quarry-merge") {
            result.deliver(SegmentMerge.merge(parts, dead: dead, order: order, facets: facets))
        }
    }

    private init(range: Range<Int>, result: Eventual<Segment>) {
        self.range = range
        self.result = result
    }

    /// The same merge, its parts moved by `offset` positions (segments before them were merged).
    func shifted(by offset: Int) -> PendingMerge {
        PendingMerge(range: (range.lowerBound + offset)..<(range.upperBound + offset), result: result)
    }

    /// The merged segment, once the thread is done.
    func segment() -> Segment {
        result.wait()
    }

    /// Runs `body` on the merge's thread once it is done, or at once if it is; one body per merge, the
    /// last given. It may hold the index carrying this merge: it is let go of once it ran.
    func whenDone(_ body: @escaping @Sendable () -> Void) {
        result.whenDelivered { _ in body() }
    }
}
