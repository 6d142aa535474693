import XCTest
import QuarrySync

/// The thread for background work:
/// 1. runs each job on itself, at a nice value above the caller's (Linux: per thread), and returns its result;
/// 2. leaves the caller's priority as it was, so the threads that search are never lowered;
/// 3. runs jobs one at a time, in the order they came.
final class BackgroundThreadTests: XCTestCase {
    func testJobsRunLoweredAndTheCallerIsNot() throws {
        #if !os(Linux)
        throw XCTSkip("per-thread nice values are Linux's")
        #else
        let caller = BackgroundThread.niceness()
        let thread = BackgroundThread(name: "quarry-test-bg")
        let inside = thread.run { BackgroundThread.niceness() }
        XCTAssertEqual(inside, min(caller + BackgroundThread.defaultNiceness, 19))
        XCTAssertEqual(BackgroundThread.niceness(), caller, "the caller keeps its priority")
        let other = DispatchQueue(label: "other")
        XCTAssertEqual(other.sync { BackgroundThread.niceness() }, caller, "other threads keep theirs")
        #endif
    }

    func testJobsRunOneAtATimeInOrder() {
        let thread = BackgroundThread(name: "quarry-test-bg")
        let order = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for n in 0..<25 { thread.run { order.withLock { $0.append(worker * 100 + n) } } }
        }
        let seen = order.withLock { $0 }
        XCTAssertEqual(seen.count, 100)
        for worker in 0..<4 {
            let mine = seen.filter { $0 / 100 == worker }
            XCTAssertEqual(mine, mine.sorted(), "one caller's jobs run in its order")
        }
    }
}
