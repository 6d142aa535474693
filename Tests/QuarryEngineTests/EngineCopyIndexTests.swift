import Dispatch
import QuarryJSON
import QuarrySync
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// Index copy and move, and deleteBy, on the embedded engine:
/// 1. a copy replaces the destination's records and settings and keeps its replicas (which then show the new
///    records); the source's replicas are not copied;
/// 2. `records: false` copies the settings only;
/// 3. a move deletes the source, and a reopened engine has the moved index and not the source;
/// 4. a search during a copy sees the destination wholly old or wholly new;
/// 5. refusals (same name, a replica as destination, no selection for deleteBy) leave everything as it was.
final class EngineCopyIndexTests: EngineTestCase {
    private func books(_ engine: Engine) throws {
        _ = try engine.setSettings(["searchableAttributes": ["title"], "replicas": ["books_by_year"]], index: "books")
        _ = try engine.saveObjects((0..<5).map { record(String($0), ["title": .string("river \($0)"), "year": .int(Int64(1990 + $0))]) },
                                   index: "books")
        _ = try engine.setSettings(["replicas": ["shelf_by_year"]], index: "shelf")
        _ = try engine.saveObjects([record("old", ["title": "stone"])], index: "shelf")
    }

    private func objectIDs(_ engine: Engine, _ index: String) throws -> [String] {
        try engine.browse(index: index, parameters: [:], cursor: nil).hits.compactMap { $0["objectID"]?.stringValue }.sorted()
    }

    func testACopyReplacesTheDestinationAndKeepsItsReplicas() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        try books(engine)
        _ = try engine.copyIndex("books", to: "shelf")
        XCTAssertEqual(try objectIDs(engine, "shelf"), ["0", "1", "2", "3", "4"])
        XCTAssertEqual(try engine.search(index: "shelf_by_year", parameters: ["query": "river"]).nbHits, 5)
        let settings = try engine.settings(index: "shelf")
        XCTAssertEqual(settings["searchableAttributes"], ["title"])
        XCTAssertEqual(settings["replicas"], ["shelf_by_year"], "the destination keeps its replicas, not the source's")
        XCTAssertEqual(try objectIDs(engine, "books"), ["0", "1", "2", "3", "4"], "the source is untouched")
    }

    func testASettingsOnlyCopyKeepsTheRecords() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        try books(engine)
        _ = try engine.copyIndex("books", to: "shelf", records: false, settings: true)
        XCTAssertEqual(try objectIDs(engine, "shelf"), ["old"])
        XCTAssertEqual(try engine.settings(index: "shelf")["searchableAttributes"], ["title"])
        _ = try engine.copyIndex("books", to: "fresh", records: false, settings: false)
        XCTAssertEqual(try objectIDs(engine, "fresh"), [], "nothing copied still creates the destination, as Algolia does")
    }

    func testAMoveDeletesTheSourceAndSurvivesAReopen() throws {
        var engine: Engine? = try Engine(directory: directory.path, log: { _ in })
        try books(engine!)
        _ = try engine!.copyIndex("books", to: "shelf", move: true)
        XCTAssertEqual(engine!.listIndices().map(\.name), ["shelf", "shelf_by_year"], "the source's replicas go with it")
        engine!.close()
        engine = nil
        let reopened = try Engine(directory: directory.path, log: { _ in })
        XCTAssertEqual(reopened.listIndices().map(\.name), ["shelf", "shelf_by_year"])
        XCTAssertEqual(try objectIDs(reopened, "shelf"), ["0", "1", "2", "3", "4"])
        XCTAssertEqual(try reopened.search(index: "shelf", parameters: ["query": "river"]).nbHits, 5)
    }

    func testASearchDuringACopySeesTheOldOrTheNewDestination() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        _ = try engine.saveObjects((0..<3000).map { record("n\($0)", ["title": .string("new \($0)")]) }, index: "source")
        _ = try engine.saveObjects((0..<1000).map { record("o\($0)", ["title": .string("old \($0)")]) }, index: "target")
        let seen = Locked<Set<Int>>([])
        let done = Locked(false)
        let reader = DispatchQueue(label: "reader")
        let group = DispatchGroup()
        reader.async(group: group) {
            while !done.withLock({ $0 }) {
                let hits = (try? engine.search(index: "target", parameters: ["hitsPerPage": 0]).nbHits ?? -1) ?? -1
                seen.withLock { _ = $0.insert(hits) }
            }
        }
        for _ in 0..<3 { _ = try engine.copyIndex("source", to: "target") }
        done.withLock { $0 = true }
        group.wait()
        XCTAssertTrue(seen.withLock { $0 }.isSubset(of: [1000, 3000]), "\(seen.withLock { $0 })")
    }

    func testRefusalsChangeNothing() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        try books(engine)
        XCTAssertThrowsError(try engine.copyIndex("books", to: "books")) { error in
            XCTAssertEqual((error as? BackendError).flatMap { if case .invalidParameter(let name, _) = $0 { name } else { nil } },
                           "destination")
        }
        XCTAssertThrowsError(try engine.copyIndex("books", to: "shelf_by_year"))
        XCTAssertThrowsError(try engine.copyIndex("nowhere", to: "shelf")) { error in
            XCTAssertEqual(error as? BackendError, .indexNotFound("nowhere"))
        }
        XCTAssertThrowsError(try engine.deleteBy(index: "books", parameters: ["filters": ""]))
        XCTAssertThrowsError(try engine.deleteBy(index: "books", parameters: ["filters": "year <"]))
        XCTAssertEqual(try objectIDs(engine, "shelf"), ["old"])
        XCTAssertEqual(try objectIDs(engine, "books"), ["0", "1", "2", "3", "4"])
    }

    func testDeleteByDeletesTheMatchesOnly() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        try books(engine)
        _ = try engine.deleteBy(index: "books", parameters: ["numericFilters": ["year >= 1993"]])
        XCTAssertEqual(try objectIDs(engine, "books"), ["0", "1", "2"])
        _ = try engine.deleteBy(index: "books", parameters: ["query": "river 1"])
        XCTAssertEqual(try objectIDs(engine, "books"), ["0", "2"])
        XCTAssertEqual(try engine.search(index: "books_by_year", parameters: [:]).nbHits, 2, "the replica follows")
    }
}
