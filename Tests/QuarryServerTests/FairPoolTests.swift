import Dispatch
import QuarrySync
import XCTest
@testable import QuarryServer

/// The read pool takes turns between connections: a client that queued many
/// requests waits behind its own, not in front of everyone else's.
final class FairPoolTests: XCTestCase {
    func testKeysTakeTurnsAndEachKeyKeepsItsOrder() {
        let pool = FairPool(width: 1)
        let order = Locked<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        func job(_ name: String) -> @Sendable () -> Void {
            done.enter()
            return {
                order.withLock { $0.append(name) }
                done.leave()
            }
        }
        // A blocker holds the only worker, so everything else is queued before anything runs.
        let started = DispatchSemaphore(value: 0)
        done.enter()
        pool.submit(key: 0) {
            started.signal()
            gate.wait()
            done.leave()
        }
        started.wait()
        for i in 0...4 { pool.submit(key: 1, job("flood-\(i)")) }
        pool.submit(key: 2, job("quiet-0"))
        pool.submit(key: 3, job("other-0"))
        pool.submit(key: 2, job("quiet-1"))
        gate.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(order.withLock { $0 }, [
            "flood-0", "quiet-0", "other-0", "flood-1", "quiet-1", "flood-2", "flood-3", "flood-4",
        ])
    }

    func testRunsUpToWidthJobsAtOnce() {
        let pool = FairPool(width: 2)
        let running = Locked((now: 0, most: 0))
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for key in 0..<6 {
            done.enter()
            pool.submit(key: UInt64(key)) {
                running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                arrived.signal()
                _ = release.wait(timeout: .now() + 10)
                running.withLock { $0.now -= 1 }
                done.leave()
            }
        }
        // Two jobs run together (a pool of one would never let the second arrive)...
        XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success)
        // ...and no third joins them while they hold their workers.
        XCTAssertEqual(arrived.wait(timeout: .now() + 0.2), .timedOut)
        for _ in 0..<6 { release.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(running.withLock { $0.most }, 2)
    }
}
