/// Merges that run off the write path, beside the writes that keep coming (the merge policy is in
/// ARCHITECTURE.md, "Segments and merges").
///
/// A merge reads one snapshot and folds a run of its segments into one; meanwhile writes may append
/// segments and mark documents of the merged ones deleted. `rebasing` carries the merged segment over to
/// the newest snapshot: the same run of segments replaced by the merged one, and the documents deleted
/// since the merge began marked deleted in it. Writes only ever replace the newest segments, so the run
/// is still there unless a write folded its last segment, or a rebuild replaced them all: then the
/// merge is dropped and tried again later.
extension SearchIndex {
    /// A merge of `range`'s segments of `base`, into `segment`.
    struct Merge {
        let base: SearchIndex
        let range: Range<Int>
        let segment: Segment
    }

    /// The run of segments a background merge should fold now, or nil. The segments except the newest
    /// (which writes still fold) are grouped in tiers by live documents: tier 0 below
    /// `mergeFactor × floor`, tier 1 below `mergeFactor² × floor`, and so on. When the newest
    /// of them and the ones just before it in the same tier number `mergeFactor`, they merge into one
    /// segment of the next tier. So each document is rewritten once per tier (log of the index size),
    /// no merge is much larger than the tier it fills, and a stream of batches leaves at most
    /// `mergeFactor` segments a tier plus the few the writes still fold.
    func backgroundMerge(policy: MergePolicy = .standard) -> Range<Int>? {
        // A write's merge still running holds some of these segments: it is settled first (`settled()`).
        guard segments.count > policy.mergeFactor, pending == nil else { return nil }
        func tier(_ s: Int) -> Int { max(policy.tier(segments[s].count - dead[s].count, above: policy.floor), 0) }
        let last = segments.count - 2
        let lastTier = tier(last)
        var first = last
        while first > 0 && tier(first - 1) == lastTier { first -= 1 }
        guard last - first + 1 >= policy.mergeFactor else { return nil }
        return (last + 1 - policy.mergeFactor)..<(last + 1)
    }

    /// Folds `range`'s segments, without their deleted documents, into one; its largest arrays written to
    /// files in `spillDirectory` when it holds `MergePolicy.spillFrom` documents or more.
    func merging(_ range: Range<Int>, spillDirectory: String? = nil) -> Merge {
        let live = range.reduce(0) { $0 + segments[$1].count - dead[$1].count }
        let spill = live >= MergePolicy.standard.spillFrom ? spillDirectory : nil
        return Merge(base: self, range: range, segment: merge(segments[range], dead[range], spillDirectory: spill))
    }

    /// This index with `merge` applied: `merge.base` or a later snapshot of it. Nil when the merged
    /// segments are no longer all there.
    func rebasing(_ merge: Merge) -> SearchIndex? {
        let range = merge.range
        guard range.upperBound <= segments.count, settings == merge.base.settings else { return nil }
        for s in range where segments[s].identity != merge.base.segments[s].identity { return nil }
        var segments = self.segments, dead = self.dead
        Self.replace(range, of: &segments, &dead, with: merge.segment, deadWhenBegun: merge.base.dead[range])
        // A write's merge begun since, of newer segments, still holds; one of the same segments is dropped.
        let pending = self.pending.flatMap { $0.range.lowerBound >= range.upperBound ? $0.shifted(by: 1 - range.count) : nil }
        return SearchIndex(settings: settings, layout: layout, order: order, segments: segments, dead: dead, pending: pending)
    }

    /// Replaces `range`'s segments by `merged`, their merge, in which the documents deleted from them since
    /// the merge began (their dead sets then were `deadWhenBegun`; it left those out) are marked deleted.
    static func replace(_ range: Range<Int>, of segments: inout [Segment], _ dead: inout [Bitset], with merged: Segment,
                        deadWhenBegun: ArraySlice<Bitset>) {
        var deleted = Bitset(capacity: merged.count)
        for (s, then) in zip(range, deadWhenBegun) {
            dead[s].forEachInserted(since: then) { ordinal in
                if let ordinal = merged.ordinal(of: segments[s].docIDs[ordinal]) { deleted.insert(ordinal) }
            }
        }
        segments.replaceSubrange(range, with: [merged])
        dead.replaceSubrange(range, with: [deleted])
    }
}
