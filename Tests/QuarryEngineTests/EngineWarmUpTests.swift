import QuarryJSON
import QuarrySync
import XCTest
@testable import QuarryEngine

/// Opening an engine searches each index once (`Engine.warmUp`), so that the first keystroke after a
/// restart does not pay for the process's first search: a record reader is open when the engine is handed out.
final class EngineWarmUpTests: EngineTestCase {
    func testOpeningSearchesEachIndexOnce() throws {
        do {
            let engine = try Engine(directory: directory.path, persistDelay: 3600, log: { _ in })
            _ = try engine.saveObjects([record("1", ["name": "widget", "brand": "Acme"])], index: "parts")
            _ = try engine.setSettings(["attributesForFaceting": ["brand"]], index: "parts")
            engine.close()
        }
        let lines = Locked<[String]>([])
        let engine = try Engine(directory: directory.path, persistDelay: 3600, log: { line in lines.withLock { $0.append(line) } })
        defer { engine.close() }
        XCTAssertEqual(try engine.existing("parts").readers.idleCount, 1, "the search made at open returned its reader")
        XCTAssertEqual(lines.withLock { $0 }, [])
    }
}
