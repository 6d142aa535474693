import QuarryJSON
import QuarrySearchContract
import QuarryText

public typealias DocID = UInt32

/// Immutable snapshot of one index's derived search structures: what a search reads.
///
/// Layout: a list of `Segment`s, oldest (largest) first, each with a bitset of its deleted ordinals.
/// `build()` makes one segment. `updating()` appends a segment built from the batch's records, marks
/// replaced and deleted documents dead in older segments (copying only those bitsets, n/8 bytes), then
/// folds tiny trailing segments together (`MergePolicy`; the newest of one size tier too, once the
/// index holds more segments than the write stall). Merges rebuild from the segments' own token lists,
/// so no record is re-read. The other merges are left to the owner, off the write path: tiered merges
/// while writes stream (`backgroundMerge`, `rebasing`), and `compacted()` once they stop, when
/// `needsCompaction`. Snapshots share every unchanged array (copy-on-write), so readers
/// never wait.
public final class SearchIndex: Sendable {
    let settings: IndexSettings
    let layout: SearchableLayout
    let order: StaticOrder
    let segments: [Segment]
    /// Deleted ordinals per segment, same indices as `segments`.
    let dead: [Bitset]
    /// The write's merge of some of `segments` still running, if any (`settled()`).
    let pending: PendingMerge?

    /// When `updating()` merges the newest segments (ARCHITECTURE.md, "Segments and merges").
    struct MergePolicy: Sendable {
        /// Merges inside `updating()` touch at most this many live documents; larger ones run off the write
        /// path (`backgroundMerge`, `compacted()`).
        var eagerLimit = 20_000
        /// The newest segment folds into its predecessor while the two hold at most this many together:
        /// tiny segments only cost.
        var floor = 1_000
        /// …and while the predecessor holds at most this many times the newest's live documents. A stream of
        /// single records then rewrites each of them a few times, not the whole predecessor at every write:
        /// folding into any predecessor under the floor cost 4 ms of CPU a record, merging 500 documents on
        /// average (Benchmarks/RESULTS.md, "Single records fold in a geometric tail").
        var foldRatio = 16
        /// This many newest segments of one size tier merge, off the write path or in a write: each document
        /// is rewritten once per tier.
        var mergeFactor = 8
        /// Writes merge a tier themselves only while the index holds more than this many segments; below,
        /// they leave the tiers to the merges off the write path, which each write wakes, so that those run
        /// beside the writer's next batch instead of before its reply. Searches read every segment: beside a
        /// stream of batches of 1,000, keystrokes slowed with a stall at 16 (ARCHITECTURE.md, "Segments and
        /// merges").
        var writeStall = 8
        /// Merges off the write path of this many live documents or more (all but the first tier's) write
        /// their postings and token positions to files (`SpillFile`), not to the heap: merged segments held
        /// most of the peak while loading by batches until the next save (ARCHITECTURE.md, "Segments and
        /// merges"). From 64,000 only, batches of 5,000 left the second tier's on the heap: a 1M load peaked
        /// at 542 MiB against 363 (Benchmarks/RESULTS.md).
        var spillFrom = 8_000
        /// Builds from records (a write's batch, an import, a rebuild) of this many documents or more write
        /// their postings and token positions to files too: a stream's batches of 5,000 wait on the heap,
        /// unsaved, until eight of them merge.
        var buildSpillFrom = 2_000
        /// A write's merge of this many live documents or more runs beside the next write (`PendingMerge`),
        /// not before its reply: the first tier's merges, 8,000 documents every eighth batch of 1,000,
        /// were an eighth of such a stream's time (Benchmarks/RESULTS.md, "Handoffs that start small, and
        /// a write's merge beside the next").
        var deferFrom = 2_000

        /// The size tier of `live` documents above `base` (`floor`): -1 below it, then 0 below
        /// `base × mergeFactor`, 1 below `base × mergeFactor²`, and so on.
        func tier(_ live: Int, above base: Int) -> Int {
            let base = max(base, 1)
            guard live >= base else { return -1 }
            var tier = 0, bound = base * mergeFactor
            while live >= bound && tier < 16 { tier += 1; bound *= mergeFactor }
            return tier
        }

        static let standard = MergePolicy()
    }

    /// More segments than this make `needsCompaction` true.
    static let compactionSegmentCount = 6

    init(settings: IndexSettings, layout: SearchableLayout, order: StaticOrder, segments: [Segment], dead: [Bitset],
         pending: PendingMerge? = nil) {
        self.settings = settings
        self.layout = layout
        self.order = order
        self.segments = segments
        self.dead = dead
        self.pending = pending
    }

    /// Later records with the same docID replace earlier ones, as a write batch would.
    public static func build(settings: IndexSettings, records: some Sequence<(DocID, JSONObject)>) -> SearchIndex {
        var seen: [DocID: Int] = [:]
        var list: [(DocID, JSONObject)] = []
        for (id, record) in records {
            if let at = seen[id] { list[at] = (id, record) } else { seen[id] = list.count; list.append((id, record)) }
        }
        return build(settings: settings, uniqueRecords: list)
    }

    /// Records whose docIDs are all distinct (a store's rows), added as they
    /// stream by: a rebuild holds a few batches of parsed records at a time (their facet values are
    /// gathered on a thread of their own, see `FacetsAlongside`), not all of them. From
    /// `MergePolicy.buildSpillFrom` records, the postings and token positions go to files of
    /// `spillDirectory` when given.
    static func build(settings: IndexSettings, uniqueRecords records: some Sequence<(DocID, JSONObject)>,
                      spillDirectory: String? = nil) -> SearchIndex {
        var builder = SegmentBuilder(settings: settings)
        for (id, record) in records { builder.add(docID: id, record: record) }
        let segment = builder.finish(spillDirectory: buildSpill(spillDirectory, documents: builder.count))
        return SearchIndex(settings: settings, builtBy: builder, segment: segment)
    }

    /// Records whose docIDs are known only once the store holds them (one each, in order, all distinct,
    /// which `docIDs` returns). They are tokenised and laid out meanwhile, ranked as if their docIDs rose
    /// with them, as a batch of new records' do; if theirs rank them otherwise (records replaced out of
    /// order, with tied ranking values), the segment is built again from them. Nil when `docIDs` returns
    /// nil (the write that stores them failed).
    static func build(settings: IndexSettings, records: [JSONObject], docIDs: () -> [DocID]?,
                      spillDirectory: String? = nil) -> SearchIndex? {
        var builder = SegmentBuilder(settings: settings)
        for record in records { builder.add(record: record) }
        let ahead = builder.layOutAhead(spillDirectory: buildSpill(spillDirectory, documents: builder.count))
        guard let ids = docIDs() else { return nil }
        guard ahead.ranks(ids) else {
            return build(settings: settings, uniqueRecords: zip(ids, records), spillDirectory: spillDirectory)
        }
        return SearchIndex(settings: settings, builtBy: builder, segment: ahead.segment(docIDs: ids))
    }

    /// Where a build of `documents` records lays out its postings and token positions: `directory` from
    /// `MergePolicy.buildSpillFrom` records, the heap below.
    private static func buildSpill(_ directory: String?, documents: Int) -> String? {
        documents >= MergePolicy.standard.buildSpillFrom ? directory : nil
    }

    /// The index of `segment`, the one segment `builder` laid out.
    private convenience init(settings: IndexSettings, builtBy builder: SegmentBuilder, segment: Segment) {
        self.init(settings: settings, layout: builder.layout, order: builder.order, segments: [segment],
                  dead: [Bitset(capacity: segment.count)])
    }

    public var documentCount: Int {
        zip(segments, dead).reduce(0) { $0 + $1.0.count - $1.1.count }
    }

    /// True when enough small segments piled up that `compacted()` would speed searches up: more than
    /// `compactionSegmentCount`, a segment more than half deleted, or more than an eighth of the live
    /// documents outside the largest segment. A keystroke pays for a small segment nearly what it pays for
    /// a large one (100k records loaded by batches of 5,000 left six segments, and keystrokes at 4.6× the
    /// p99 of one), while a compaction costs about what the save that follows it does.
    public var needsCompaction: Bool {
        let live = zip(segments, dead).map { $0.0.count - $0.1.count }
        let total = live.reduce(0, +), largest = live.max() ?? 0
        return segments.count > Self.compactionSegmentCount
            || zip(segments, dead).contains { $0.1.count * 2 > $0.0.count && $0.1.count > 0 }
            || (total - largest) * 8 > total
    }

    public func updating(upserts: [(DocID, JSONObject)], deletions: [DocID]) -> SearchIndex {
        updating(upserts: upserts, deletions: deletions, policy: .standard)
    }

    func updating(upserts: [(DocID, JSONObject)], deletions: [DocID], policy: MergePolicy) -> SearchIndex {
        var dead = self.dead
        // Last upsert of an id wins inside the batch; an id both deleted and upserted ends up upserted.
        var latest: [DocID: Int] = [:]
        for (i, (id, _)) in upserts.enumerated() { latest[id] = i }
        for id in deletions + upserts.map(\.0) {
            for (s, segment) in segments.enumerated() {
                if let ordinal = segment.ordinal(of: id) { dead[s].insert(ordinal) }
            }
        }
        var segments = self.segments
        if !latest.isEmpty {
            var builder = SegmentBuilder(layout: layout, order: order, facets: FacetLayout(settings: settings))
            for (i, (id, record)) in upserts.enumerated() where latest[id] == i {
                builder.add(docID: id, record: record)
            }
            let segment = builder.finish()
            segments.append(segment)
            dead.append(Bitset(capacity: segment.count))
        }
        // The newest segment folds into a tiny predecessor not much larger than itself (or either is empty);
        // past `writeStall` segments, the newest `mergeFactor` merge here too when they are of one tier and
        // small together.
        var pending = self.pending
        while segments.count >= 2 {
            // A write's merge that is done is swapped in first (waiting for none).
            if let done = pending, done.isDone {
                done.settle(&segments, &dead)
                pending = nil
            }
            let n = segments.count
            func live(_ s: Int) -> Int { segments[s].count - dead[s].count }
            var run = (n - 2)..<n
            var deferred = false
            let folds = live(n - 2) + live(n - 1) <= policy.floor
                && (live(n - 1) == 0 || live(n - 2) <= policy.foldRatio * live(n - 1))
            if !folds && live(n - 2) > 0 {
                guard n > policy.writeStall, n >= policy.mergeFactor, policy.mergeFactor >= 2 else { break }
                run = (n - policy.mergeFactor)..<n
                let tier = policy.tier(live(n - 1), above: policy.floor)
                let total = run.reduce(0, { $0 + live($1) })
                guard tier >= 0, run.allSatisfy({ policy.tier(live($0), above: policy.floor) == tier }),
                      total <= policy.eagerLimit else { break }
                deferred = total >= policy.deferFrom
            }
            // A write's merge still running: its parts are neither folded nor merged again until it is done,
            // and the write waits for it only to begin the next, `mergeFactor` writes after it under a
            // stream of batches.
            if let running = pending, run.lowerBound < running.range.upperBound || deferred {
                guard deferred && run.lowerBound >= running.range.upperBound else { break }
                running.settle(&segments, &dead)
                pending = nil
                continue
            }
            if deferred {
                pending = PendingMerge(parts: Array(segments[run]), dead: Array(dead[run]), range: run,
                                       order: order, facets: FacetLayout(settings: settings))
                break
            }
            let merged = merge(segments[run], dead[run])
            segments.replaceSubrange(run, with: [merged])
            dead.replaceSubrange(run, with: [Bitset(capacity: merged.count)])
        }
        return SearchIndex(settings: settings, layout: layout, order: order, segments: segments, dead: dead, pending: pending)
    }

    /// This index with its pending merge's segment in place of the merge's parts, once the merge is done
    /// (waiting for it), and the documents deleted from the parts since it began marked deleted in it;
    /// itself when no merge is pending.
    func settled() -> SearchIndex {
        guard let pending else { return self }
        var segments = self.segments, dead = self.dead
        pending.settle(&segments, &dead)
        return SearchIndex(settings: settings, layout: layout, order: order, segments: segments, dead: dead)
    }

    /// One segment holding every live document: the snapshot searches fastest, costing a full rewrite.
    public func compacted() -> SearchIndex {
        guard segments.count > 1 || dead.first.map({ $0.count > 0 }) == true else { return self }
        let merged = merge(segments[...], dead[...])
        return SearchIndex(settings: settings, layout: layout, order: order, segments: [merged],
                           dead: [Bitset(capacity: merged.count)])
    }

    func merge(_ parts: ArraySlice<Segment>, _ deadParts: ArraySlice<Bitset>, spillDirectory: String? = nil) -> Segment {
        SegmentMerge.merge(Array(parts), dead: Array(deadParts), order: order, facets: FacetLayout(settings: settings),
                           spillDirectory: spillDirectory)
    }
}
