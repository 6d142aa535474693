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
