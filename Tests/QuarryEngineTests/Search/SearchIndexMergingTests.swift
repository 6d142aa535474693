@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract
import QuarrySync

/// The merge policy off the write path (ARCHITECTURE.md, "Segments and merges"):
/// 1. a stream of batches, with the owner's background merges between them, keeps the segment count
///    bounded (without them it grows with the stream), and answers as one build of the same records;
/// 2. a merge made from an older snapshot is carried over to the writes made meanwhile, and dropped when
///    a write folded one of its segments;
/// 3. inside the writes, tiny segments fold together; once the index holds more segments than the write stall
///    (the merges off the write path fell behind), the newest four of a size merge too, up to the eager limit;
/// 4. such a merge of many documents runs beside the next writes, which carry it (their deletions in its
///    parts kept for when it is swapped in) until it is done, or wait for it only to begin the next; a merge
///    of older segments carries it over.
final class SearchIndexMergingTests: XCTestCase {
    private let settings = IndexSettings.with {
        $0.searchableAttributes = [SearchableAttribute(paths: ["name"])]
        $0.customRanking = [CustomRankingCriterion(attribute: "pop", ascending: false)]
    }
    private let policy = SearchIndex.MergePolicy(eagerLimit: 40, floor: 40, mergeFactor: 4)

    private func record(_ i: Int, generation: Int = 0) -> JSONObject {
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa"]
        return ["objectID": .string("r\(i)"), "name": .string("\(words[(i + generation) % 8]) \(words[(i * 3) % 8]) item\(i)"), "pop": JSON((i * 37 + generation) % 101)]
    }

    private func assertSameAnswers(_ a: SearchIndex, _ records: [DocID: JSONObject], file: StaticString = #filePath, line: UInt = #line) throws {
        let sorted = records.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let b = SearchIndex.build(settings: settings, records: sorted)
        XCTAssertEqual(a.documentCount, b.documentCount, file: file, line: line)
        let source = InMemoryRecords(sorted)
        for query in ["", "al", "alpha", "beta ga", "item1", "kappa t"] {
            let p = try SearchParameters(json: ["query": .string(query), "hitsPerPage": 50], settings: settings)
            let ra = try a.search(p, records: source), rb = try b.search(p, records: source)
            XCTAssertEqual(ra.nbHits, rb.nbHits, "nbHits for \(query)", file: file, line: line)
            XCTAssertEqual(ra.hits.map { $0["objectID"] }, rb.hits.map { $0["objectID"] }, "order for \(query)", file: file, line: line)
        }
    }

    /// 150 batches of 20 records (a few replacing or deleting earlier ones); the owner runs the merges due between batches.
    private func stream(merging: Bool) throws -> (index: SearchIndex, records: [DocID: JSONObject], mostSegments: Int) {
        var records: [DocID: JSONObject] = [:]
        var index = SearchIndex.build(settings: settings, records: EmptyCollection())
        var mostSegments = 0
        for batch in 0..<150 {
            var upserts: [(DocID, JSONObject)] = []
            for k in 0..<20 {
                let id = DocID(batch * 20 + k)
                upserts.append((id, record(Int(id))))
                records[id] = record(Int(id))
            }
            let replaced = DocID((batch * 7) % max(1, batch * 20))
            if batch > 0 { upserts.append((replaced, record(Int(replaced), generation: batch))); records[replaced] = record(Int(replaced), generation: batch) }
            let deleted = DocID((batch * 13 + 5) % max(1, batch * 20))
            let deletions: [DocID] = batch > 2 && deleted != replaced ? [deleted] : []
            for id in deletions { records[id] = nil }
            index = index.updating(upserts: upserts, deletions: deletions, policy: policy)
            while merging, let range = index.backgroundMerge(policy: policy) {
                index = try XCTUnwrap(index.rebasing(index.merging(range)))
            }
            mostSegments = max(mostSegments, index.segments.count)
        }
        return (index, records, mostSegments)
    }

    func testStreamOfBatchesKeepsTheSegmentCountBounded() throws {
        // 3,000 documents in batches of about 20 (the lowest tier): tiers below 160, 640, 2,560 and above; at most 3 of each
        // tier once merged, and the newest segment that writes still fold.
        let merged = try stream(merging: true)
        XCTAssertLessThanOrEqual(merged.mostSegments, 4 * 3 + 1)
        try assertSameAnswers(merged.index, merged.records)
        let unmerged = try stream(merging: false)
        XCTAssertGreaterThan(unmerged.mostSegments, 40, "without background merges a stream leaves a segment per 40 documents")
    }

    /// The sizes of the segments after each of 34 batches of 20 written under `policy`, and the records.
    /// `count` writes of 40 new records each into an empty index under `policy`, and the records written.
    private func batchesOf40(_ count: Int, policy: SearchIndex.MergePolicy) -> (index: SearchIndex, records: [DocID: JSONObject]) {
        var records: [DocID: JSONObject] = [:]
        var index = SearchIndex.build(settings: settings, records: EmptyCollection())
        for batch in 0..<count {
            let upserts = (0..<40).map { k in (DocID(batch * 40 + k), record(batch * 40 + k)) }
            for (id, r) in upserts { records[id] = r }
            index = index.updating(upserts: upserts, deletions: [], policy: policy)
        }
        return (index, records)
    }

    private func writeBatches(_ policy: SearchIndex.MergePolicy) -> (sizes: [[Int]], index: SearchIndex, records: [DocID: JSONObject]) {
        var records: [DocID: JSONObject] = [:]
        var index = SearchIndex.build(settings: settings, records: EmptyCollection())
        var sizes: [[Int]] = []
        for batch in 0..<34 {
            let upserts = (0..<20).map { k in (DocID(batch * 20 + k), record(batch * 20 + k)) }
            for (id, r) in upserts { records[id] = r }
            index = index.updating(upserts: upserts, deletions: [], policy: policy)
            sizes.append(index.segments.map(\.count))
        }
        return (sizes, index, records)
    }

    func testWritesMergeTheirNewestSegmentsInTiersOnceStalled() throws {
        // Stalled from the start: two batches fold into 40 (the floor), four of 40 merge into 160; four of 160
        // would pass the eager limit, so they wait for the merges off the write path.
        let stalled = writeBatches(SearchIndex.MergePolicy(eagerLimit: 400, floor: 40, mergeFactor: 4, writeStall: 0))
        XCTAssertEqual(stalled.sizes[1], [40])
        XCTAssertEqual(stalled.sizes[7], [160])
        XCTAssertEqual(stalled.sizes[13], [160, 40, 40, 40])
        XCTAssertEqual(stalled.sizes[31], [160, 160, 160, 160])
        XCTAssertEqual(stalled.sizes[33], [160, 160, 160, 160, 40])
        try assertSameAnswers(stalled.index, stalled.records)
        // Below a stall of 6 segments the writes only fold, leaving the tiers to the merges off the write path;
        // past it, the newest four of one tier merge in the write.
        let stall = writeBatches(SearchIndex.MergePolicy(eagerLimit: 400, floor: 40, mergeFactor: 4, writeStall: 6))
        XCTAssertEqual(stall.sizes[11], Array(repeating: 40, count: 6))
        XCTAssertEqual(stall.sizes[12], Array(repeating: 40, count: 6) + [20])
        XCTAssertEqual(stall.sizes[13], [40, 40, 40, 160])
        try assertSameAnswers(stall.index, stall.records)
    }

    func testAWritesLargeMergeRunsBesideTheNextWrites() throws {
        // Stalled from the start, with merges of 100 documents or more deferred: the write that makes four
        // segments of 40 returns them unmerged, carrying their merge, and the writes after it carry it on
        // (replacing and deleting records of its parts) until it is done or the next must begin.
        let policy = SearchIndex.MergePolicy(eagerLimit: 400, floor: 40, mergeFactor: 4, writeStall: 0, deferFrom: 100)
        var records: [DocID: JSONObject] = [:]
        var index = SearchIndex.build(settings: settings, records: EmptyCollection())
        var begun = 0
        for batch in 0..<20 {
            var upserts = (0..<20).map { k in (DocID(batch * 20 + k), record(batch * 20 + k)) }
            var deletions: [DocID] = []
            if let pending = index.pending {
                let parts = index.segments[pending.range]
                let replaced = parts[parts.startIndex].docIDs[batch % 40], deleted = parts[parts.endIndex - 1].docIDs[batch % 40]
                upserts.append((replaced, record(Int(replaced), generation: batch)))
                deletions.append(deleted)
            }
            for (id, r) in upserts { records[id] = r }
            for id in deletions { records[id] = nil }
            let before = index
            index = index.updating(upserts: upserts, deletions: deletions, policy: policy)
            if let pending = index.pending {
                XCTAssertEqual(pending.range.count, 4)
                XCTAssertEqual(index.segments[pending.range].map(\.count), [40, 40, 40, 40], "searches read the parts meanwhile")
                if let earlier = before.pending {
                    let carried = index.segments[pending.range].map(\.identity) == before.segments[earlier.range].map(\.identity)
                    if !carried { begun += 1 }
                    XCTAssertTrue(carried || !index.segments.contains { $0.identity == before.segments[earlier.range.lowerBound].identity },
                                  "a write carries the running merge or settles it, never begins a second over its parts")
                } else {
                    begun += 1
                }
            }
            try assertSameAnswers(index, records)
        }
        XCTAssertGreaterThanOrEqual(begun, 2)
        let settled = index.settled()
        XCTAssertNil(settled.pending)
        try assertSameAnswers(settled, records)
    }

    func testWritesCarryARunningMergeAndSettleItOnceDone() throws {
        // Four segments of 40 whose merge the test delivers itself, so that it runs as long as the test says.
        let policy = SearchIndex.MergePolicy(eagerLimit: 400, floor: 40, mergeFactor: 4, writeStall: 0, deferFrom: 100)
        let apart = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0, writeStall: 100)
        var (index, records) = batchesOf40(4, policy: apart)
        index = index.updating(upserts: [], deletions: [DocID(5)], policy: apart)
        records[5] = nil
        let result = Eventual<Segment>()
        let parts = index.segments, deadWhenBegun = index.dead
        index = SearchIndex(settings: index.settings, layout: index.layout, order: index.order, segments: parts, dead: deadWhenBegun,
                            pending: PendingMerge(range: 0..<4, deadWhenBegun: deadWhenBegun, result: result))
        // While it runs: records of its parts replaced and deleted, and batches appended after them.
        for (batch, part) in [(4, 0), (5, 3), (6, 1)] {
            let replaced = parts[part].docIDs[7], deleted = parts[part].docIDs[30]
            let upserts = (0..<40).map { k in (DocID(batch * 40 + k), record(batch * 40 + k)) } + [(replaced, record(Int(replaced), generation: batch))]
            for (id, r) in upserts { records[id] = r }
            records[deleted] = nil
            index = index.updating(upserts: upserts, deletions: [deleted], policy: policy)
            XCTAssertEqual(index.pending?.range, 0..<4)
            XCTAssertEqual(index.segments[0..<4].map(\.identity), parts.map(\.identity), "the parts stay where they lie")
            try assertSameAnswers(index, records)
        }
        result.deliver(SegmentMerge.merge(parts, dead: deadWhenBegun, order: index.order, facets: FacetLayout(settings: settings)))
        // Done: the next write swaps it in, with the documents deleted and replaced meanwhile left out of it.
        index = index.updating(upserts: [(DocID(900), record(900))], deletions: [], policy: policy)
        records[900] = record(900)
        XCTAssertNil(index.pending)
        XCTAssertEqual(index.segments.first?.count, 159, "the four parts, but the record deleted before the merge began")
        XCTAssertEqual(index.dead.first?.count, 6, "three replaced, three deleted while it ran")
        try assertSameAnswers(index, records)
    }

    func testAMergeOfOlderSegmentsCarriesAWritesMergeOver() throws {
        // A background merge of the oldest segments, begun before a write left its own merge running, is
        // carried over with that merge moved to where its parts now lie.
        let policy = SearchIndex.MergePolicy(eagerLimit: 400, floor: 40, mergeFactor: 4, writeStall: 4, deferFrom: 100)
        var records: [DocID: JSONObject] = [:]
        var index = SearchIndex.build(settings: settings, records: (0..<200).map { (DocID($0), record($0)) })
        func write(_ ids: Range<Int>, deleting deletions: [DocID] = []) {
            let upserts = ids.map { (DocID($0), record($0)) }
            for (id, r) in upserts { records[id] = r }
            for id in deletions { records[id] = nil }
            index = index.updating(upserts: upserts, deletions: deletions, policy: policy)
        }
        for id in 0..<200 { records[DocID(id)] = record(id) }
        write(200..<400)
        for batch in 0..<3 { write((1_000 + batch * 40)..<(1_040 + batch * 40)) }
        XCTAssertEqual(index.segments.map(\.count), [200, 200, 40, 40, 40])
        let older = index.merging(0..<2)
        write(2_000..<2_040, deleting: [DocID(3)])
        XCTAssertEqual(index.pending?.range, 2..<6)
        let rebased = try XCTUnwrap(index.rebasing(older))
        XCTAssertEqual(rebased.pending?.range, 1..<5)
        try assertSameAnswers(rebased, records)
        let settled = rebased.settled()
        XCTAssertEqual(settled.segments.map(\.count), [400, 160])
        try assertSameAnswers(settled, records)
    }

    func testSingleRecordsFoldInAGeometricTail() throws {
        // 400 writes of one record after a segment of 100: folding each into any predecessor under the floor (100)
        // rewrote the whole tail at every write, about 50 documents a record; a predecessor at most 4 times the
        // newest leaves a few segments of growing size and rewrites each record a few times.
        func writeSingles(foldRatio: Int) throws -> (rewritten: Int, mostSegments: Int) {
            let policy = SearchIndex.MergePolicy(eagerLimit: 400, floor: 100, foldRatio: foldRatio, mergeFactor: 4, writeStall: 100)
            var records = Dictionary(uniqueKeysWithValues: (0..<100).map { (DocID($0), record($0)) })
            var index = SearchIndex.build(settings: settings, records: records.map { ($0.key, $0.value) })
            var rewritten = 0, mostSegments = 0
            for i in 100..<500 {
                let before = Set(index.segments.map(\.identity))
                records[DocID(i)] = record(i)
                index = index.updating(upserts: [(DocID(i), record(i))], deletions: [], policy: policy)
                // The segments this write made hold its record once, and every document it merged again.
                rewritten += index.segments.filter { !before.contains($0.identity) }.reduce(0) { $0 + $1.count } - 1
                mostSegments = max(mostSegments, index.segments.count)
            }
            try assertSameAnswers(index, records)
            return (rewritten, mostSegments)
        }
        let anyPredecessor = try writeSingles(foldRatio: 1 << 20)
        XCTAssertGreaterThan(anyPredecessor.rewritten, 400 * 40)
        let geometric = try writeSingles(foldRatio: 4)
        XCTAssertLessThan(geometric.rewritten, 400 * 8)
        // Past the base and the segments the floor filled, at most one segment per power of 5 below the floor.
        XCTAssertLessThanOrEqual(geometric.mostSegments, anyPredecessor.mostSegments + 3)
    }

    func testSmallSegmentsHoldingAnEighthOfTheDocumentsNeedCompaction() {
        let apart = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0, writeStall: 100)
        var index = SearchIndex.build(settings: settings, records: (0..<160).map { (DocID($0), record($0)) })
        for batch in 0..<2 {
            let upserts = (0..<10).map { k in (DocID(1_000 + batch * 10 + k), record(1_000 + batch * 10 + k)) }
            index = index.updating(upserts: upserts, deletions: [], policy: apart)
        }
        XCTAssertEqual(index.segments.map(\.count), [160, 10, 10])
        XCTAssertFalse(index.needsCompaction, "20 of 180 outside the largest segment")
        index = index.updating(upserts: (0..<5).map { (DocID(2_000 + $0), record(2_000 + $0)) }, deletions: [], policy: apart)
        XCTAssertTrue(index.needsCompaction, "25 of 185 outside the largest segment")
        XCTAssertEqual(index.compacted().segments.count, 1)
    }

    func testMergeIsCarriedOverToWritesMadeMeanwhile() throws {
        let (index, written) = batchesOf40(8, policy: policy)
        var records = written
        XCTAssertEqual(index.segments.count, 8)
        let merge = index.merging(2..<7)
        // Meanwhile: records of the merged segments replaced and deleted, new ones appended.
        var later = index.updating(upserts: [(DocID(100), record(100, generation: 5)), (DocID(400), record(400))],
                                   deletions: [DocID(150), DocID(3)], policy: policy)
        records[100] = record(100, generation: 5)
        records[400] = record(400)
        records[150] = nil
        records[3] = nil
        later = later.updating(upserts: [(DocID(401), record(401))], deletions: [DocID(230)], policy: policy)
        records[401] = record(401)
        records[230] = nil
        let rebased = try XCTUnwrap(later.rebasing(merge))
        XCTAssertEqual(rebased.segments.count, later.segments.count - 4)
        try assertSameAnswers(rebased, records)
        // A merge whose newest segment a write folded since is dropped.
        let tail = index.merging(6..<8)
        let folded = index.updating(upserts: (500..<503).map { (DocID($0), record($0)) }, deletions: [],
                                    policy: .init(eagerLimit: 1_000, floor: 100))
        XCTAssertLessThanOrEqual(folded.segments.count, index.segments.count, "the write folded the newest segment")
        XCTAssertNil(folded.rebasing(tail))
    }
}
