import QuarrySync

/// A write's own merge of its newest segments, running on a thread of its own beside the next writes
/// instead of before the reply (ARCHITECTURE.md, "Segments and merges"). The index that started it
/// carries it (`SearchIndex.pending`) and searches read its unmerged segments until it swaps itself in
/// (`whenDone`). The writes that come meanwhile carry it on, appending their segments after its parts
/// and marking the documents they replace deleted in them; a write waits for it only when its own
/// merge policy would begin another such merge.
///
/// Its thread holds the parts, and it their deleted documents when it began, not the index, so that the
/// index holding it is not kept alive by its own merge. An index derived from the one carrying it
/// keeps the parts where they lie (a write, or `adopting` a saved file's), shifts them (`rebasing` a
/// merge of older segments), settles it first (`SearchIndex.settled()`), or drops it.
struct PendingMerge: Sendable {
    /// Where the parts lie among the segments of the index that carries it.
    let range: Range<Int>
    /// The parts' deleted documents when it began: the merge left them out.
    let deadWhenBegun: [Bitset]
    private let result: Eventual<Segment>

    init(parts: [Segment], dead: [Bitset], range: Range<Int>, order: StaticOrder, facets: FacetLayout) {
        self.range = range
        self.deadWhenBegun = dead
        let result = Eventual<Segment>()
        self.result = result
        // A write's thread is lowered, and this one inherits its nice value (`BackgroundThread`).
        DetachedThread.startOrFail(name: "quarry-merge") {
            result.deliver(SegmentMerge.merge(parts, dead: dead, order: order, facets: facets))
        }
    }

    /// A merge whose segment `result` delivers: `shifted`, and tests that decide when it is done.
    init(range: Range<Int>, deadWhenBegun: [Bitset], result: Eventual<Segment>) {
        self.range = range
        self.deadWhenBegun = deadWhenBegun
        self.result = result
    }

    /// The same merge, its parts moved by `offset` positions (segments before them were merged).
    func shifted(by offset: Int) -> PendingMerge {
        PendingMerge(range: (range.lowerBound + offset)..<(range.upperBound + offset), deadWhenBegun: deadWhenBegun,
                     result: result)
    }

    /// True once the thread is done: settling would not wait.
    var isDone: Bool {
        result.isDelivered
    }

    /// Replaces the parts in `segments` by the merged segment, waiting for it, with the documents
    /// deleted from them since it began marked deleted in it.
    func settle(_ segments: inout [Segment], _ dead: inout [Bitset]) {
        SearchIndex.replace(range, of: &segments, &dead, with: result.wait(), deadWhenBegun: deadWhenBegun[...])
    }

    /// Runs `body` on the merge's thread once it is done, or at once if it is; one body per merge, the
    /// last given. It may hold the index carrying this merge: it is let go of once it ran.
    func whenDone(_ body: @escaping @Sendable () -> Void) {
        result.whenDelivered { _ in body() }
    }
}
