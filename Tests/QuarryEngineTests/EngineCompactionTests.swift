import QuarryJSON
import XCTest
@testable import QuarryEngine

/// Deletions leave dead documents in segments; the persistence step compacts
/// them off the write path without changing any answer.
final class EngineCompactionTests: EngineTestCase {
    func testBackgroundCompactionKeepsAnswersAndMergesSegments() throws {
        let engine = try Engine(directory: directory.path, persistDelay: 3600, log: { _ in })
        defer { engine.close() }
        let records = (0..<200).map { record("\($0)", ["name": .string("widget part \($0)")]) }
        _ = try engine.saveObjects(records, index: "parts")
        _ = try engine.saveObjects([record("extra", ["name": "widget part extra"])], index: "parts")
        _ = try engine.deleteObjects((0..<120).map { "\($0)" }, index: "parts")
        let index = try engine.existing("parts")
        XCTAssertTrue(index.views.primary.index.needsCompaction)
        let query: JSONObject = ["query": "widget par", "hitsPerPage": 1000]
        let before = try engine.search(index: "parts", parameters: query)

        index.compactIfNeeded()

        XCTAssertFalse(index.views.primary.index.needsCompaction)
        let after = try engine.search(index: "parts", parameters: query)
        XCTAssertEqual(after.nbHits, 81)
        XCTAssertEqual(after["hits"], before["hits"])
    }
}

/// A view merged after a restart (its file held many segments, or many deleted documents) is saved and
/// then served from its file, mapped like an imported one, not left on the heap.
final class EngineMergedViewTests: EngineTestCase {
    func testMergedViewIsSavedAndServedFromItsFile() throws {
        let path = directory.path + "/indices/parts/search.index"
        do {
            let engine = try Engine(directory: directory.path, persistDelay: 3600, log: { _ in })
            _ = try engine.saveObjects((0..<200).map { record("\($0)", ["name": .string("widget part \($0)")]) }, index: "parts")
            _ = try engine.deleteObjects((0..<120).map { "\($0)" }, index: "parts")
            let index = try engine.existing("parts")
            XCTAssertTrue(index.views.primary.index.needsCompaction)
            // Writes were not quiet since the last save: the file is saved as it is, the merge put off.
            XCTAssertTrue(index.persistNow(serveFromFile: false, log: { _ in }))
            XCTAssertTrue(index.views.primary.index.needsCompaction)
            let unmerged = try Data(contentsOf: URL(fileURLWithPath: path))
            engine.close()
            // What a kill -9 before the merge leaves: the file of the unmerged view, at the store's generation.
            try unmerged.write(to: URL(fileURLWithPath: path))
        }
        let engine = try Engine(directory: directory.path, persistDelay: 0.05, log: { _ in })
        defer { engine.close() }
        let index = try engine.existing("parts")
        let deadline = Date().addingTimeInterval(20)
        func served() -> (segments: Int, deleted: Int, mapped: Int) {
            let view = index.views.primary.index
            return (view.segments.count, view.dead.reduce(0) { $0 + $1.count },
                    engine.listIndices(memory: true).first { $0.name == "parts" }?.memory?.mapped ?? 0)
        }
        while (served().segments != 1 || served().deleted != 0 || served().mapped == 0) && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(served().segments, 1)
        XCTAssertEqual(served().deleted, 0)
        XCTAssertGreaterThan(served().mapped, 0, "the merged segment is read in place from its saved file")
        XCTAssertEqual(try engine.search(index: "parts", parameters: ["query": "widget par", "hitsPerPage": 1000]).nbHits, 80)
    }
}

/// Each write wakes the merges off the write path (`EngineIndex.mergeSoon`): batches too large to merge inside
/// a write (`mergeFactor` of them pass the eager limit) are merged in the background without waiting for a save.
/// A write's own merge of many documents runs beside the next write (`PendingMerge`); when none follows, the
/// merged segment is swapped in as soon as it is done, without a save either.
final class EngineWriteWakesMergesTests: EngineTestCase {
    /// `batches` writes of `size` records into "parts", then the served segments' sizes once fewer than
    /// `until` remain (or after 30 s).
    private func stream(_ engine: Engine, batches: Int, size: Int, until: Int) throws -> (index: EngineIndex, sizes: [Int]) {
        for batch in 0..<batches {
            let records = (0..<size).map { record("\(batch)-\($0)", ["name": .string("widget part \(batch) \($0)")]) }
            _ = try engine.saveObjects(records, index: "parts")
        }
        let index = try engine.existing("parts")
        let deadline = Date().addingTimeInterval(30)
        while index.views.primary.index.segments.count >= until && Date() < deadline { usleep(10_000) }
        return (index, index.views.primary.index.segments.map(\.count))
    }

    func testBatchesTooLargeForTheWritesAreMergedInTheBackground() throws {
        let engine = try Engine(directory: directory.path, persistDelay: 3600, log: { _ in })
        defer { engine.close() }
        let policy = SearchIndex.MergePolicy.standard
        let size = policy.floor * 5
        XCTAssertEqual(policy.tier(size, above: policy.floor), 0)
        XCTAssertGreaterThan(policy.mergeFactor * size, policy.eagerLimit)
        let batches = policy.mergeFactor + 2
        let (index, sizes) = try stream(engine, batches: batches, size: size, until: batches)
        // `mergeFactor` batches of one tier merged into one (which ones depends on when the merge ran); the
        // others wait for more.
        XCTAssertEqual(sizes.sorted(), [size, size, policy.mergeFactor * size])
        XCTAssertEqual(index.saves, 0, "merged without a save")
        XCTAssertEqual(try engine.search(index: "parts", parameters: ["query": "widget", "hitsPerPage": 0]).nbHits, batches * size)
    }

    func testAWritesMergeIsServedOnceDoneWithoutAnotherWrite() throws {
        let engine = try Engine(directory: directory.path, persistDelay: 3600, log: { _ in })
        defer { engine.close() }
        let policy = SearchIndex.MergePolicy.standard
        let size = policy.floor
        XCTAssertGreaterThanOrEqual(policy.mergeFactor * size, policy.deferFrom)
        XCTAssertLessThanOrEqual(policy.mergeFactor * size, policy.eagerLimit)
        let batches = policy.writeStall + 1
        let (index, sizes) = try stream(engine, batches: batches, size: size, until: 3)
        // The last write's merge of the newest `mergeFactor` segments, the last write's own among them.
        XCTAssertEqual(sizes, [size, policy.mergeFactor * size])
        XCTAssertNil(index.views.primary.index.pending)
        XCTAssertEqual(index.saves, 0, "served without a save")
        XCTAssertEqual(try engine.search(index: "parts", parameters: ["query": "widget", "hitsPerPage": 0]).nbHits, batches * size)
    }
}
