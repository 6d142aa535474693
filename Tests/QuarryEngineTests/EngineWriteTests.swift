import QuarryJSON
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// The engine's write calls, each visible to search as soon as it returns:
/// 1. saveObjects creates the index, generates missing objectIDs, turns integer objectIDs into strings;
/// 2. a batch with one bad objectID writes nothing;
/// 3. partial updates merge top-level attributes; createIfNotExists decides for missing records;
/// 4. delete and clear remove records; every write bumps the taskID (the store generation);
/// 5. setSettings merges, reports unsupported names, and the settings survive a reopen;
/// 6. listIndices and deleteIndex.
final class EngineWriteTests: EngineTestCase {

    func engine() throws -> Engine { try Engine(directory: directory.path, log: { _ in }) }

    func testSaveObjectsCreatesTheIndexAndIsSearchable() throws {
        let engine = try engine()
        XCTAssertThrowsError(try engine.search(index: "books", parameters: [:])) {
            XCTAssertEqual($0 as? BackendError, .indexNotFound("books"))
        }
        let receipt = try engine.saveObjects(
            [record("a", ["title": "Dune"]), ["objectID": 42, "title": "Emma"], ["title": "Dracula"]], index: "books")
        XCTAssertEqual(receipt.objectIDs.count, 3)
        XCTAssertEqual(receipt.objectIDs[1], "42")
        XCTAssertEqual(receipt.objectIDs[2].count, 36, "a generated UUID")
        XCTAssertEqual(receipt.taskID, 1)
        let result = try engine.search(index: "books", parameters: ["query": "d"])
        XCTAssertEqual(result.nbHits, 2)
        let emma = try engine.search(index: "books", parameters: ["query": "emma"])
        XCTAssertEqual(emma["hits"]?.arrayValue?.first?["objectID"], "42")
        let fetched = try engine.getObjects(["42", "nope"], index: "books")
        XCTAssertEqual(fetched, [["objectID": "42", "title": "Emma"], nil])
    }

    func testABadObjectIDRejectsTheWholeBatch() throws {
        let engine = try engine()
        _ = try engine.saveObjects([record("a")], index: "i")
        XCTAssertThrowsError(try engine.saveObjects([record("b"), ["objectID": 1.5], record("c")], index: "i")) {
            XCTAssertEqual($0 as? BackendError, .invalidRecord(
                position: "record 2", reason: "objectID must be a non-empty string or an integer, not number"))
        }
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 1)
        XCTAssertEqual(try engine.saveObjects([record("d")], index: "i").taskID, 2, "the rejected batch bumped nothing")
    }

    func testPartialUpdateMergesTopLevelAttributes() throws {
        let engine = try engine()
        _ = try engine.saveObjects([record("a", ["title": "Dune", "meta": ["x": 1, "y": 2]])], index: "i")
        _ = try engine.partialUpdateObjects([record("a", ["meta": ["x": 5]]), record("new", ["title": "Emma"])],
                                            index: "i", createIfNotExists: false)
        var hits = try engine.search(index: "i", parameters: ["query": ""])["hits"]?.arrayValue ?? []
        XCTAssertEqual(hits.count, 1, "a missing record is not created")
        XCTAssertEqual(hits.first?["title"], "Dune")
        XCTAssertEqual(hits.first?["meta"], ["x": 5], "top-level attributes are replaced, not deep-merged")
        _ = try engine.partialUpdateObjects([record("new", ["title": "Emma"])], index: "i", createIfNotExists: true)
        hits = try engine.search(index: "i", parameters: ["query": "emma"])["hits"]?.arrayValue ?? []
        XCTAssertEqual(hits.first?["objectID"], "new")
        XCTAssertThrowsError(try engine.partialUpdateObjects([["title": "x"]], index: "i")) {
            guard case BackendError.invalidRecord(let position, _) = $0 else { return XCTFail("\($0)") }
            XCTAssertEqual(position, "record 1")
        }
    }

    func testDeleteClearAndTaskIDs() throws {
        let engine = try engine()
        let saved = try engine.saveObjects([record("a"), record("b"), record("c")], index: "i")
        let deleted = try engine.deleteObjects(["b", "missing"], index: "i")
        XCTAssertEqual(deleted.taskID, saved.taskID + 1)
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 2)
        _ = try engine.setSettings(["hitsPerPage": 3], index: "i")
        let cleared = try engine.clearObjects(index: "i")
        XCTAssertEqual(cleared.taskID, saved.taskID + 3)
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 0)
        XCTAssertEqual(try engine.settings(index: "i")["hitsPerPage"], 3, "clear keeps settings")
        XCTAssertThrowsError(try engine.deleteObjects(["a"], index: "nope"))
        XCTAssertThrowsError(try engine.clearObjects(index: "nope"))
    }

    func testSetSettingsMergesReportsAndPersists() throws {
        do {
            let engine = try engine()
            _ = try engine.saveObjects([record("a", ["title": "Dune"])], index: "i")
            let receipt = try engine.setSettings(
                ["attributesToIndex": ["title"], "ignorePlurals": true, "hitsPerPage": 5], index: "i")
            XCTAssertEqual(receipt.unsupported, ["ignorePlurals"])
            _ = try engine.setSettings(["hitsPerPage": 8], index: "i")
            XCTAssertThrowsError(try engine.setSettings(["hitsPerPage": "x"], index: "other"))
            XCTAssertEqual(engine.listIndices().map(\.name), ["i"], "a rejected setSettings creates nothing")
            engine.close()
        }
        let settings = try engine().settings(index: "i")
        XCTAssertEqual(settings["searchableAttributes"], ["title"])
        XCTAssertEqual(settings["hitsPerPage"], 8)
        XCTAssertEqual(settings["ignorePlurals"], true)
    }

    func testListAndDeleteIndices() throws {
        let engine = try engine()
        _ = try engine.saveObjects([record("a"), record("b")], index: "b/odd name")
        _ = try engine.setSettings(["replicas": ["virtual(a_desc)"]], index: "a")
        let list = engine.listIndices()
        XCTAssertEqual(list.map(\.name), ["a", "a_desc", "b/odd name"])
        XCTAssertEqual(list.map(\.entries), [0, 0, 2])
        XCTAssertEqual(list[0].replicas, ["a_desc"])
        XCTAssertEqual(list[1].primary, "a")
        XCTAssertGreaterThan(list[2].dataSize, 0)
        let item = list[2].json()
        XCTAssertEqual(item["createdAt"]?.stringValue?.count, 24)
        XCTAssertTrue(try engine.deleteIndex("b/odd name"))
        XCTAssertFalse(try engine.deleteIndex("b/odd name"))
        XCTAssertEqual(engine.listIndices().map(\.name), ["a", "a_desc"])
        _ = try engine.saveObjects([record("z")], index: "b/odd name")
        XCTAssertEqual(try engine.search(index: "b/odd name", parameters: [:]).nbHits, 1, "recreated empty, then written")
    }

    func testBadNamesAndAClosedEngineAreErrors() throws {
        let engine = try engine()
        XCTAssertThrowsError(try engine.saveObjects([record("a")], index: "")) {
            guard case BackendError.invalidParameter(let name, _) = $0 else { return XCTFail("\($0)") }
            XCTAssertEqual(name, "indexName")
        }
        _ = try engine.saveObjects([record("a")], index: "i")
        engine.close()
        XCTAssertThrowsError(try engine.search(index: "i", parameters: [:])) {
            XCTAssertEqual($0 as? BackendError, .storage("engine is closed"))
        }
        XCTAssertThrowsError(try engine.saveObjects([record("b")], index: "i"))
        XCTAssertEqual(engine.listIndices(), [])
    }

    func testTimestampsRenderAsISO8601() {
        XCTAssertEqual(WallTime.iso8601(0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(WallTime.iso8601(951_782_400_123), "2000-02-29T00:00:00.123Z")
        XCTAssertEqual(WallTime.iso8601(1_709_251_199_999), "2024-02-29T23:59:59.999Z")
    }
}
