import QuarrySync
import XCTest
@testable import QuarryServer

/// Read-your-writes bookkeeping: a read waits for the writes to its index sent
/// before it, never for writes to other indices or for writes sent after it.
final class PendingWritesTests: XCTestCase {
    private final class Log: Sendable {
        let entries = Locked<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    func testAReadRunsAtOnceWhenNothingItReadsIsInFlight() {
        let writes = PendingWrites(), log = Log()
        writes.after(["a"]) { log.add("read a") }
        let other = writes.begin("b")
        writes.after(["a"]) { log.add("read a again") }
        XCTAssertEqual(log.all, ["read a", "read a again"], "a write to b does not delay a read of a")
        writes.end(other)
        XCTAssertTrue(writes.isEmpty)
    }

    func testAReadWaitsForEveryEarlierWriteToItsIndexOnly() {
        let writes = PendingWrites(), log = Log()
        let first = writes.begin("a"), second = writes.begin("a")
        writes.after(["a"]) { log.add("read a") }
        let later = writes.begin("a")
        writes.end(first)
        XCTAssertEqual(log.all, [])
        writes.end(second)
        XCTAssertEqual(log.all, ["read a"], "released before the write sent after it finishes")
        writes.end(later)
    }

    func testAnUnscopedReadWaitsForAllAndReleasesInOrder() {
        let writes = PendingWrites(), log = Log()
        let a = writes.begin("a"), b = writes.begin("b")
        writes.after(nil) { log.add("list") }
        writes.after(["b"]) { log.add("read b") }
        writes.after(["a", "a_replica"]) { log.add("read replica") }
        writes.end(b)
        XCTAssertEqual(log.all, ["read b"])
        writes.end(a)
        XCTAssertEqual(log.all, ["read b", "list", "read replica"])
        XCTAssertTrue(writes.isEmpty)
    }
}
