import QuarryJSON
import XCTest
@testable import QuarryEngine

/// The search index file is not rewritten while writes keep coming, unless a bound is crossed; it is
/// saved once they pause (ARCHITECTURE.md, "Saving the search index files").
final class EngineSavePolicyTests: EngineTestCase {
    /// 1. A pause of the engine's delay saves. 2. Under a stream, documents written since the last save
    /// reaching max(minimum, documents saved) save. 3. So does the oldest unsaved write reaching
    /// max(maximumSeconds, ten saves' time). 4. Otherwise the save is put off.
    func testPolicyPutsOffSavesWhileWritesKeepComing() {
        let policy = EngineSavePolicy(quietSeconds: 1)
        func unsaved(last: Double = 0.1, first: Double = 5, documents: Int = 10_000, saved: Int = 0, save: Double = 0.2)
            -> EngineSavePolicy.Unsaved
        {
            .init(sinceLastWrite: last, sinceFirstWrite: first, documents: documents, savedDocuments: saved, lastSaveSeconds: save)
        }
        XCTAssertTrue(policy.shouldSave(unsaved(last: 1)))
        XCTAssertFalse(policy.shouldSave(unsaved()))
        XCTAssertTrue(policy.shouldSave(unsaved(documents: 50_000)))
        XCTAssertFalse(policy.shouldSave(unsaved(documents: 50_000, saved: 400_000)))
        XCTAssertTrue(policy.shouldSave(unsaved(documents: 400_000, saved: 400_000)))
        XCTAssertTrue(policy.shouldSave(unsaved(documents: .max, saved: 400_000)))
        XCTAssertTrue(policy.shouldSave(unsaved(first: 60)))
        XCTAssertFalse(policy.shouldSave(unsaved(first: 60, save: 8)))
        XCTAssertTrue(policy.shouldSave(unsaved(first: 80, save: 8)))
    }

    /// A stream of small batches for 2 s, with a 500 ms save delay (long enough that a loaded machine does not
    /// pause the stream that long): before the policy, the file
    /// was rewritten (and read back) after every 500 ms of it; now not once until the stream stops, and
    /// then it is saved at the store's generation.
    func testStreamOfBatchesSavesOnlyWhenItStops() throws {
        let engine = try Engine(directory: directory.path, persistDelay: 0.5, log: { _ in })
        defer { engine.close() }
        _ = try engine.saveObjects([record("first", ["name": "widget"])], index: "parts")
        let index = try engine.existing("parts")
        let start = Date()
        var batch = 0
        while Date().timeIntervalSince(start) < 2 {
            let records = (0..<10).map { record("\(batch)-\($0)", ["name": .string("widget part \(batch) \($0)")]) }
            _ = try engine.saveObjects(records, index: "parts")
            batch += 1
            usleep(5_000)
        }
        XCTAssertEqual(index.saves, 0, "no save while the writes kept coming (\(batch) batches)")

        let deadline = Date().addingTimeInterval(10)
        while index.saves == 0 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(index.saves, 1)
        let path = directory.path + "/indices/parts/search.index"
        let saved = try SearchIndex.read(from: path, settings: index.views.primary.settings)
        XCTAssertEqual(saved.generation, index.views.primary.generation)
        XCTAssertEqual(saved.index.documentCount, 1 + 10 * batch)
    }
}
