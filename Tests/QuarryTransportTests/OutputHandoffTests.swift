import XCTest
@testable import QuarryTransport

/// The handoff's lines round-trip, and a reply is acknowledged only once all its bytes are out.
final class OutputHandoffTests: XCTestCase {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testRequestCarriesTheFrontendsFraming() {
        for framing in [Framing.contentLength, .newlineDelimited] {
            XCTAssertEqual(OutputHandoff.requestedFraming(OutputHandoff.request(framing: framing)), framing)
        }
        XCTAssertNil(OutputHandoff.requestedFraming(bytes(#"{"jsonrpc":"2.0","method":"$/quarry/adoptOutput","params":{"framing":"x"}}"#)))
        XCTAssertNil(OutputHandoff.requestedFraming(bytes(#"{"jsonrpc":"2.0","id":1,"method":"listIndices"}"#)))
    }

    func testEchoWrapsAndUnwrapsAMessage() {
        let message = bytes(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}"#)
        XCTAssertEqual(OutputHandoff.echoed(OutputHandoff.echo(message)).map(Array.init), message)
        XCTAssertNil(OutputHandoff.echoed(message))
    }

    func testRepliesAreAcknowledgedByIdAndBatchesWhole() {
        let reply = bytes(#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#)
        let ack = OutputHandoff.acknowledgement(for: reply)
        XCTAssertEqual(ack, bytes("{\"ack\":\"a\\\"b\"}\n"))
        XCTAssertEqual(OutputHandoff.acknowledgedID(Array(ack?.dropLast() ?? [])), #""a\"b""#)
        XCTAssertNil(OutputHandoff.acknowledgement(for: bytes(#"{"jsonrpc":"2.0","method":"resultsUpdated","params":{}}"#)))
        XCTAssertEqual(OutputHandoff.acknowledgement(for: bytes("[{\"id\":1},\n{\"id\":2}]")), bytes("[{\"id\":1}, {\"id\":2}]\n"))
        XCTAssertNil(OutputHandoff.acknowledgedID(OutputHandoff.adopted))
    }

    func testTakeReportsOnlyTheFramesItFinished() {
        var queue = OutboundQueue()
        for (byte, ack) in [(UInt8(1), "one"), (2, "two"), (3, "three")] {
            var frame = OutboundFrame(prefix: [9], body: [UInt8](repeating: byte, count: 4), suffix: [10], coalescingKey: nil)
            frame.acknowledgement = bytes(ack)
            queue.append(frame, coalescingThreshold: 1 << 20)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        defer { buffer.deallocate() }
        var finished: [[UInt8]] = []
        XCTAssertEqual(queue.take(into: buffer, finishing: &finished), 8)
        XCTAssertEqual(finished, [bytes("one")], "the second frame is cut after its first two bytes")
        XCTAssertEqual(queue.take(into: buffer, finishing: &finished), 8)
        XCTAssertEqual(finished, [bytes("one"), bytes("two")])
        XCTAssertEqual(queue.take(into: buffer, finishing: &finished), 2)
        XCTAssertEqual(finished, [bytes("one"), bytes("two"), bytes("three")])
        XCTAssertTrue(queue.isEmpty)
    }
}
