import Dispatch
import QuarryJSON
import XCTest
import QuarrySync
@testable import QuarryEngine
import QuarrySearchContract

/// Concurrency and ownership:
/// 1. a second Engine on a locked directory fails with .directoryLocked and a message naming `quarry connect`;
/// 2. searches running while a large write commits only ever see the state before or after it;
/// 3. concurrent writers to one index all land (writes are serialised, none lost).
final class EngineConcurrencyTests: EngineTestCase {

    func testDirectoryLockHeldIsAnError() throws {
        let first = try Engine(directory: directory.path, log: { _ in })
        XCTAssertThrowsError(try Engine(directory: directory.path, log: { _ in })) { error in
            XCTAssertEqual(error as? BackendError, .directoryLocked(directory.path))
            XCTAssertTrue("\(error)".contains("quarry connect"))
            XCTAssertTrue("\(error)".contains(directory.path))
        }
        first.close()
        XCTAssertNoThrow(try Engine(directory: directory.path, log: { _ in }), "released by close()")
    }

    func testSearchesSeeBeforeOrAfterALargeWrite() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        _ = try engine.saveObjects((0..<100).map { record("old\($0)", ["kind": "thing"]) }, index: "i")
        let batch = (0..<3000).map { record("new\($0)", ["kind": "thing"]) }
        let seen = Locked<Set<Int>>([])
        let writing = Locked(true)
        let group = DispatchGroup()
        let firstSearchDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async(group: group) {
            var first = true
            while writing.withLock({ $0 }) {
                let hits = (try? engine.search(index: "i", parameters: ["query": "thing"]).nbHits) ?? -1
                seen.withLock { _ = $0.insert(hits) }
                if first { firstSearchDone.signal(); first = false }
            }
        }
        firstSearchDone.wait()
        _ = try engine.saveObjects(batch, index: "i")
        let afterHits = try engine.search(index: "i", parameters: ["query": "thing"]).nbHits
        writing.withLock { $0 = false }
        group.wait()
        XCTAssertEqual(afterHits, 3100)
        XCTAssertTrue(seen.withLock { $0 }.isSubset(of: [100, 3100]), "\(seen.withLock { $0 })")
        XCTAssertTrue(seen.withLock { $0 }.contains(100), "the first search ran before the write")
    }

    func testConcurrentWritersAreSerialised() throws {
        let engine = try Engine(directory: directory.path, log: { _ in })
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for n in 0..<10 {
                do { _ = try engine.saveObjects([record("w\(worker)-\(n)")], index: "i") }
                catch { failures.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 80)
        XCTAssertEqual(try engine.saveObjects([], index: "i").taskID, 81)
    }
}
