import QuarrySync
import XCTest
@testable import QuarryEngine

/// The engine's background jobs (merges, saves, record compaction) run at a lower priority than the
/// threads that write and search, and after the jobs queued before them.
final class EnginePersistQueueTests: EngineTestCase {
    func testBackgroundJobsRunLoweredSearchesDoNot() throws {
        #if !os(Linux)
        throw XCTSkip("per-thread nice values are Linux's")
        #else
        let engine = try Engine(directory: directory.path, persistDelay: 3600, log: { _ in })
        defer { engine.close() }
        let caller = BackgroundThread.niceness()
        let seen = Eventual<Int32>()
        engine.persistQueue.async { seen.deliver(BackgroundThread.niceness()) }
        XCTAssertEqual(seen.wait(), min(caller + BackgroundThread.defaultNiceness, 19))
        _ = try engine.saveObjects([record("a", ["name": "widget"])], index: "parts")
        XCTAssertEqual(try engine.search(index: "parts", parameters: ["query": "widg"]).nbHits, 1)
        XCTAssertEqual(BackgroundThread.niceness(), caller)
        #endif
    }
}
