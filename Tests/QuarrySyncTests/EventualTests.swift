import XCTest
import QuarrySync

/// A value delivered once: waiters get it, and a body given for it runs once, on the delivering thread or
/// at once when it was already delivered.
final class EventualTests: XCTestCase {
    func testABodyGivenBeforeDeliveryRunsOnDeliveryAndOneGivenAfterRunsAtOnce() {
        let eventual = Eventual<Int>()
        let seen = Locked<[Int]>([])
        eventual.whenDelivered { value in seen.withLock { $0.append(value) } }
        XCTAssertEqual(seen.withLock { $0 }, [], "not before the value")
        DetachedThread.startOrFail(name: "quarry-test-deliver") { eventual.deliver(7) }
        XCTAssertEqual(eventual.wait(), 7)
        let deadline = Date().addingTimeInterval(10)
        while seen.withLock({ $0 }).isEmpty && Date() < deadline { usleep(1_000) }
        eventual.whenDelivered { value in seen.withLock { $0.append(value + 1) } }
        XCTAssertEqual(seen.withLock { $0 }, [7, 8])
    }
}
