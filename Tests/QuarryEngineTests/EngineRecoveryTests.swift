import QuarryJSON
import XCTest
@testable import QuarryEngine

#if canImport(Glibc)
import Glibc
#endif

/// What a crash can leave, and how opening cleans it up:
/// 1. an index whose first write never committed (generation 0) is removed, with a log line;
/// 2. an index deletion interrupted after its rename is finished;
/// 3. a failed first write at run time leaves no index either.
final class EngineRecoveryTests: EngineTestCase {
    func testAnIndexWithNoCommittedWriteIsRemovedOnOpen() throws {
        let folder = try EngineIndexFolder(dataDirectory: directory.path, name: "half")
        try folder.create()
        _ = try IndexStore(path: folder.databasePath, name: "half", now: 0)  // created, never written
        EngineIndexFolder.removeTree(directory.path + "/indices/gone.deleting")
        try EngineIndexFolder(dataDirectory: directory.path, name: "gone").create()
        XCTAssertEqual(rename(directory.path + "/indices/gone", directory.path + "/indices/gone.deleting"), 0)

        let log = LogLines()
        let engine = try Engine(directory: directory.path, log: log.sink)
        XCTAssertEqual(engine.listIndices(), [])
        XCTAssertEqual(log.all.count, 1)
        XCTAssertTrue(log.all.first?.contains("'half'") == true, "\(log.all)")
        XCTAssertEqual(EngineIndexFolder.list(dataDirectory: directory.path), [])
        XCTAssertNotEqual(access(directory.path + "/indices/gone.deleting", F_OK), 0)
    }

    func testAFailedFirstWriteLeavesNoIndex() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        let path = directory.file("bad.json", contents: #"[{"objectID":"1"}, {"objectID":false}]"#)
        XCTAssertThrowsError(try engine.importRecords(index: "new", from: path))
        XCTAssertEqual(engine.listIndices(), [])
        XCTAssertEqual(EngineIndexFolder.list(dataDirectory: directory.path), [])
    }
}
