import QuarryJSON
import XCTest
@testable import QuarryEngine

#if canImport(Glibc)
import Glibc
import QuarrySearchContract
#endif

/// Replicas, declared by a primary's `replicas` (or legacy `slaves`):
/// 1. they search the primary's records, and follow every write to it at once;
/// 2. their own settings overlay the primary's; `master`/`primary` in an export is read-only;
/// 3. writing records to a replica is refused with a message naming the primary;
/// 4. an empty index named as a replica becomes one and keeps its settings; one with records is refused;
/// 5. removing a replica from the list (or deleting it) drops it; replicas survive a reopen, and their
///    derived files are checked like the primary's.
final class EngineReplicaTests: EngineTestCase {

    func testReplicasFollowThePrimary() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        _ = try engine.setSettings(["slaves": ["talks_date", "virtual(talks_relevant)"]], index: "talks")
        _ = try engine.saveObjects([record("1", ["name": "alpha"]), record("2", ["name": "beta"])], index: "talks")
        XCTAssertEqual(try engine.search(index: "talks_date", parameters: [:]).nbHits, 2)
        _ = try engine.deleteObjects(["1"], index: "talks")
        XCTAssertEqual(try engine.search(index: "talks_relevant", parameters: [:]).nbHits, 1)

        let receipt = try engine.setSettings(
            ["customRanking": ["asc(date)"], "master": "talks", "version": 1], index: "talks_date")
        XCTAssertEqual(receipt.unsupported, ["version"], "master is read-only, not unsupported")
        _ = try engine.setSettings(["hitsPerPage": 5], index: "talks")
        let replica = try engine.settings(index: "talks_date")
        XCTAssertEqual(replica["customRanking"], ["asc(date)"])
        XCTAssertEqual(replica["hitsPerPage"], 5, "inherited from the primary")
        XCTAssertEqual(replica["primary"], "talks")
        XCTAssertEqual(replica["replicas"], [])
        XCTAssertEqual(try engine.settings(index: "talks")["customRanking"], [])
        XCTAssertEqual(try engine.settings(index: "talks_relevant")["primary"], "talks")

        XCTAssertThrowsError(try engine.saveObjects([record("3")], index: "talks_date")) { error in
            guard case BackendError.invalidParameter(_, let expected) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(expected.contains("replica of 'talks'"), expected)
        }
        XCTAssertThrowsError(try engine.setSettings(["replicas": ["x"]], index: "talks_date"))
    }

    func testAnImportCanDeclareReplicas() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        let path = directory.file("talks.ndjson", contents: "{\"objectID\":\"1\"}\n{\"objectID\":\"2\"}\n")
        _ = try engine.importRecords(index: "talks", from: path, settings: ["slaves": ["talks_by_date"]])
        XCTAssertEqual(try engine.search(index: "talks_by_date", parameters: [:]).nbHits, 2)
        XCTAssertEqual(engine.listIndices().map(\.name), ["talks", "talks_by_date"])
    }

    func testAnEmptyIndexIsAdoptedAndOneWithRecordsIsRefused() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        _ = try engine.setSettings(["customRanking": ["desc(views)"]], index: "talks_views")
        _ = try engine.saveObjects([record("x")], index: "busy")
        XCTAssertThrowsError(try engine.setSettings(["replicas": ["talks_views", "busy"]], index: "talks"))
        XCTAssertThrowsError(try engine.search(index: "talks", parameters: [:]), "the refused call created nothing") {
            XCTAssertEqual($0 as? BackendError, .indexNotFound("talks"))
        }
        _ = try engine.setSettings(["replicas": ["talks_views"]], index: "talks")
        XCTAssertEqual(try engine.settings(index: "talks_views")["customRanking"], ["desc(views)"])
        XCTAssertEqual(try engine.settings(index: "talks_views")["primary"], "talks")
        XCTAssertEqual(engine.listIndices().map(\.name), ["busy", "talks", "talks_views"])
    }

    func testRemovingAndReopening() throws {
        do {
            let engine = try Engine(directory: directory.path, log: { _ in })
            _ = try engine.setSettings(["replicas": ["r1", "r2"]], index: "p")
            _ = try engine.setSettings(["hitsPerPage": 3], index: "r2")
            _ = try engine.saveObjects([record("1")], index: "p")
            XCTAssertTrue(try engine.deleteIndex("r1"))
            XCTAssertThrowsError(try engine.search(index: "r1", parameters: [:]))
            XCTAssertEqual(try engine.settings(index: "p")["replicas"], ["r2"])
            engine.close()
        }
        let log = LogLines()
        let engine = try Engine(directory: directory.path, log: log.sink)
        XCTAssertEqual(log.all, [], "every view's file was saved on close")
        XCTAssertEqual(try engine.search(index: "r2", parameters: [:]).nbHits, 1)
        XCTAssertEqual(try engine.settings(index: "r2")["hitsPerPage"], 3)
        engine.close()

        unlink(directory.path + "/indices/p/replica-r2.index")
        let relog = LogLines()
        let reopened = try Engine(directory: directory.path, log: relog.sink)
        XCTAssertEqual(relog.all.count, 1)
        XCTAssertTrue(relog.all.first?.contains("replica 'r2' of 'p'") == true, "\(relog.all)")
        XCTAssertEqual(try reopened.search(index: "r2", parameters: [:]).nbHits, 1)
    }
}
