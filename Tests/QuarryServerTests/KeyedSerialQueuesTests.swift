import Dispatch
@testable import QuarryServer
import QuarrySync
import XCTest

/// Write queues:
/// 1. one key's jobs run one at a time in the order they came, different keys' side by side;
/// 2. with `lowered`, the jobs run on its lowered threads, and the submitting threads keep their priority.
final class KeyedSerialQueuesTests: XCTestCase {
    func testOneKeysJobsRunInOrderOnLoweredThreads() throws {
        let queues = KeyedSerialQueues(label: "quarry.test.write", lowered: BackgroundThread(name: "quarry-test-write", threads: 2))
        let ran = Locked<[String: [Int]]>([:])
        let niceness = Locked<Set<Int32>>([])
        let done = DispatchGroup()
        for n in 0..<50 {
            for key in ["a", "b"] {
                done.enter()
                queues.submit(keys: [key]) {
                    ran.withLock { $0[key, default: []].append(n) }
                    niceness.withLock { _ = $0.insert(BackgroundThread.niceness()) }
                    done.leave()
                }
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(ran.withLock { $0["a"] }, Array(0..<50))
        XCTAssertEqual(ran.withLock { $0["b"] }, Array(0..<50))
        #if os(Linux)
        let caller = BackgroundThread.niceness()
        XCTAssertEqual(niceness.withLock { $0 }, [min(caller + BackgroundThread.defaultNiceness, 19)])
        XCTAssertEqual(DispatchQueue(label: "other").sync { BackgroundThread.niceness() }, caller, "other threads keep theirs")
        #endif
    }
}
