import XCTest
@testable import QuarryWeb

/// A WebSocket's outbound queue keeps the socket's rules (protocol/README.md, "Ordering guarantees" 8):
/// 1. Below the threshold nothing is dropped.
/// 2. Above it, a message with a key supersedes older unsent ones with the same key, and no others.
/// 3. Messages without a key are never dropped.
/// 4. Past the bound the queue reports an overflow (the connection is closed as a slow reader).
/// 5. What was taken is no longer superseded.
final class WebOutboundQueueTests: XCTestCase {
    func bytes(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x20, count: count) }

    func testBelowThresholdNothingIsDropped() {
        var queue = WebOutboundQueue(coalescingThreshold: 100, maxQueuedBytes: 1000)
        for _ in 0..<5 { XCTAssertEqual(queue.append(bytes(10), coalescingKey: "s"), .queued(superseded: 0)) }
        XCTAssertEqual(queue.messages.count, 5)
    }

    func testAboveThresholdSameKeyIsSuperseded() {
        var queue = WebOutboundQueue(coalescingThreshold: 25, maxQueuedBytes: 1000)
        _ = queue.append(bytes(10), coalescingKey: "a")
        _ = queue.append(bytes(10), coalescingKey: "b")
        _ = queue.append(bytes(10), coalescingKey: nil)
        XCTAssertEqual(queue.append(bytes(10), coalescingKey: "a"), .queued(superseded: 1))
        XCTAssertEqual(queue.messages.map(\.coalescingKey), ["b", nil, "a"])
        XCTAssertEqual(queue.queuedBytes, 30)
    }

    func testMessagesWithoutKeyAreNeverDropped() {
        var queue = WebOutboundQueue(coalescingThreshold: 5, maxQueuedBytes: 1000)
        for _ in 0..<10 { _ = queue.append(bytes(10), coalescingKey: nil) }
        XCTAssertEqual(queue.messages.count, 10)
    }

    func testOverflow() {
        var queue = WebOutboundQueue(coalescingThreshold: 1000, maxQueuedBytes: 50)
        for _ in 0..<5 { XCTAssertEqual(queue.append(bytes(10), coalescingKey: nil), .queued(superseded: 0)) }
        XCTAssertEqual(queue.append(bytes(1), coalescingKey: nil), .overflow)
    }

    func testTakenMessagesAreNotSuperseded() {
        var queue = WebOutboundQueue(coalescingThreshold: 15, maxQueuedBytes: 1000)
        _ = queue.append(bytes(10), coalescingKey: "a")
        XCTAssertEqual(queue.takeAll().count, 1)
        XCTAssertEqual(queue.queuedBytes, 0)
        XCTAssertEqual(queue.append(bytes(10), coalescingKey: "a"), .queued(superseded: 0))
    }
}
