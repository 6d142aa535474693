import QuarryJSON
import XCTest
@testable import QuarryEngine

#if canImport(Glibc)
import Glibc
import QuarrySearchContract
#endif

/// The derived search index file:
/// 1. saved on close(), and then reopening loads it silently;
/// 2. missing, stale (generation differs) or corrupt => rebuilt from SQLite with one log line saying which;
/// 3. the rebuilt index answers like the original;
/// 4. once saved, a view is served from its file (its large arrays read in place), answering the same.
final class EngineDerivedFileTests: EngineTestCase {
    var derivedPath: String { directory.path + "/indices/talks/search.index" }

    /// Writes two records, closes (which saves the file), and returns.
    func populate() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        _ = try engine.saveObjects([record("a", ["name": "alpha"]), record("b", ["name": "beta"])], index: "talks")
        engine.close()
    }

    func reopen() throws -> (Engine, [String]) {
        let log = LogLines()
        let engine = try Engine(directory: directory.path, log: log.sink)
        return (engine, log.all)
    }

    func testSavedOnCloseAndLoadedSilently() throws {
        try populate()
        XCTAssertEqual(access(derivedPath, F_OK), 0)
        let (engine, lines) = try reopen()
        XCTAssertEqual(lines, [])
        XCTAssertEqual(try engine.search(index: "talks", parameters: ["query": "alp"]).nbHits, 1)
    }

    func testMissingFileIsRebuiltAndLogged() throws {
        try populate()
        unlink(derivedPath)
        let (engine, lines) = try reopen()
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines[0].contains("'talks'") && lines[0].contains("missing") && lines[0].contains("2 records"), lines[0])
        XCTAssertEqual(try engine.search(index: "talks", parameters: [:]).nbHits, 2)
    }

    func testStaleFileIsRebuiltAndLogged() throws {
        try populate()
        // A file from an older generation: what a crash between commit and save leaves.
        let old = SearchIndex.build(settings: IndexSettings(), records: [(DocID(1), record("a"))])
        try old.write(to: derivedPath, generation: 0)
        let (engine, lines) = try reopen()
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines[0].contains("stale (file generation 0, store generation 1)"), lines[0])
        XCTAssertEqual(try engine.search(index: "talks", parameters: [:]).nbHits, 2)
    }

    func testCorruptFileIsRebuiltAndLogged() throws {
        try populate()
        _ = directory.file("indices/talks/search.index", contents: "\u{0}garbage")
        let (engine, lines) = try reopen()
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines[0].contains("unreadable"), lines[0])
        XCTAssertEqual(try engine.search(index: "talks", parameters: ["query": "beta"]).nbHits, 1)
    }

    func testSettingsChangeIsSavedWithItsGeneration() throws {
        try populate()
        do {
            let (engine, _) = try reopen()
            _ = try engine.setSettings(["searchableAttributes": ["name"]], index: "talks")
            engine.close()
        }
        let (engine, lines) = try reopen()
        XCTAssertEqual(lines, [], "the file saved on close matches generation 2")
        XCTAssertEqual(try engine.settings(index: "talks")["searchableAttributes"], ["name"])
    }

    func testSavedViewsAreServedFromTheirFile() throws {
        let engine = try Engine(directory: directory.path, persistDelay: 0.01, log: { _ in })
        _ = try engine.setSettings(["searchableAttributes": ["name"], "replicas": ["talks_by_name"]], index: "talks")
        let records = (0..<200).map { record("r\($0)", ["name": .string("alpha talk \($0 % 7) beta")]) }
        _ = try engine.saveObjects(records, index: "talks")
        let before = try engine.search(index: "talks", parameters: ["query": "alp tal", "hitsPerPage": 50])
        XCTAssertEqual(engine.listIndices(memory: true).first { $0.name == "talks" }?.memory?.mapped, 0, "built by the write")
        let deadline = Date().addingTimeInterval(20)
        func mapped() -> [Int] { engine.listIndices(memory: true).map { $0.memory?.mapped ?? 0 } }
        while mapped().contains(0) && Date() < deadline { usleep(10_000) }
        XCTAssertFalse(mapped().contains(0), "primary and replica read back from their files: \(mapped())")
        let after = try engine.search(index: "talks", parameters: ["query": "alp tal", "hitsPerPage": 50])
        XCTAssertEqual(after.nbHits, before.nbHits)
        XCTAssertEqual(after["hits"], before["hits"])
        engine.close()
    }
}
