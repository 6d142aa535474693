import XCTest
@testable import QuarryTransport

/// Properties checked:
/// 1. Below the threshold nothing is dropped.
/// 2. Above it, a keyed frame supersedes older unstarted frames with its key only.
/// 3. Frames without a key, and a frame already partly written, are never dropped.
/// 4. `take` copies across frame boundaries exactly the bytes of prefix + body + suffix.
/// 5. `take` reports an acknowledgement only once all of its frame's bytes are out.
final class OutboundQueueTests: XCTestCase {
    private func frame(_ byte: UInt8, count: Int, key: String?) -> OutboundFrame {
        OutboundFrame(prefix: [], body: [UInt8](repeating: byte, count: count), suffix: [], coalescingKey: key)
    }

    private func drain(_ queue: inout OutboundQueue) -> [UInt8] {
        var out: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 7, alignment: 1)
        defer { buffer.deallocate() }
        while !queue.isEmpty {
            let n = queue.take(into: buffer)
            out += buffer[..<n]
        }
        return out
    }

    func testNothingDroppedBelowThreshold() {
        var queue = OutboundQueue()
        for i in 0..<5 { queue.append(frame(UInt8(i), count: 10, key: "k"), coalescingThreshold: 1000) }
        XCTAssertEqual(queue.frameCount, 5)
        XCTAssertEqual(queue.queuedBytes, 50)
    }

    func testKeyedFrameSupersedesOlderSameKeyAboveThreshold() {
        var queue = OutboundQueue()
        queue.append(frame(1, count: 10, key: "results"), coalescingThreshold: 25)
        queue.append(frame(2, count: 10, key: nil), coalescingThreshold: 25)
        queue.append(frame(3, count: 10, key: "other"), coalescingThreshold: 25)
        let dropped = queue.append(frame(4, count: 10, key: "results"), coalescingThreshold: 25)
        XCTAssertEqual(dropped, 1)
        XCTAssertEqual(queue.queuedBytes, 30)
        XCTAssertEqual(drain(&queue), [UInt8](repeating: 2, count: 10) + [UInt8](repeating: 3, count: 10)
            + [UInt8](repeating: 4, count: 10))
    }

    func testUnkeyedFramesAreNeverDropped() {
        var queue = OutboundQueue()
        for i in 0..<10 { queue.append(frame(UInt8(i), count: 10, key: nil), coalescingThreshold: 5) }
        XCTAssertEqual(queue.frameCount, 10)
    }

    func testPartlyWrittenFrameIsKept() {
        var queue = OutboundQueue()
        queue.append(frame(1, count: 10, key: "k"), coalescingThreshold: 5)
        queue.advance(by: 4)
        XCTAssertEqual(queue.append(frame(2, count: 10, key: "k"), coalescingThreshold: 5), 0)
        XCTAssertEqual(drain(&queue), [UInt8](repeating: 1, count: 6) + [UInt8](repeating: 2, count: 10))
    }

    func testTakeCopiesPrefixBodyAndSuffixAcrossFrames() {
        var queue = OutboundQueue()
        for text in ["one", "two!"] {
            let body = Array(text.utf8)
            queue.append(OutboundFrame(prefix: FrameEncoder.prefix(for: .contentLength, payloadCount: body.count),
                                       body: body, suffix: [], coalescingKey: nil), coalescingThreshold: 0)
            queue.append(OutboundFrame(prefix: [], body: body, suffix: FrameEncoder.suffix(for: .newlineDelimited),
                                       coalescingKey: nil), coalescingThreshold: 0)
        }
        let expected = "Content-Length: 3\r\n\r\none" + "one\n" + "Content-Length: 4\r\n\r\ntwo!" + "two!\n"
        XCTAssertEqual(String(decoding: drain(&queue), as: UTF8.self), expected)
        XCTAssertEqual(queue.queuedBytes, 0)
    }

    func testTakeReportsOnlyTheFramesItFinished() {
        var queue = OutboundQueue()
        for (byte, ack) in [(UInt8(1), "one"), (2, "two"), (3, "three")] {
            var frame = OutboundFrame(prefix: [9], body: [UInt8](repeating: byte, count: 4), suffix: [10], coalescingKey: nil)
            frame.acknowledgement = Array(ack.utf8)
            queue.append(frame, coalescingThreshold: 1 << 20)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        defer { buffer.deallocate() }
        var finished: [[UInt8]] = []
        XCTAssertEqual(queue.take(into: buffer, finishing: &finished), 8)
        XCTAssertEqual(finished, [Array("one".utf8)], "the second frame is cut after its first two bytes")
        XCTAssertEqual(queue.take(into: buffer, finishing: &finished), 8)
        XCTAssertEqual(finished, [Array("one".utf8), Array("two".utf8)])
        XCTAssertEqual(queue.take(into: buffer, finishing: &finished), 2)
        XCTAssertEqual(finished, [Array("one".utf8), Array("two".utf8), Array("three".utf8)])
        XCTAssertTrue(queue.isEmpty)
    }
}
