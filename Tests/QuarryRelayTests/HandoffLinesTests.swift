import QuarryTransport
import XCTest
@testable import QuarryRelay

/// The handoff's lines round-trip: what the relay writes, the daemon's side reads back.
final class HandoffLinesTests: XCTestCase {
    private let lines = HandoffLines()

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testRequestCarriesTheFrontendsFraming() {
        for framing in [Framing.contentLength, .newlineDelimited] {
            XCTAssertEqual(lines.requestedFraming(HandoffLines.request(framing: framing)), framing)
        }
        XCTAssertNil(lines.requestedFraming(bytes(#"{"jsonrpc":"2.0","method":"$/quarry/adoptOutput","params":{"framing":"x"}}"#)))
        XCTAssertNil(lines.requestedFraming(bytes(#"{"jsonrpc":"2.0","id":1,"method":"listIndices"}"#)))
    }

    func testEchoWrapsAndUnwrapsAMessage() {
        let message = bytes(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}"#)
        XCTAssertEqual(lines.echoed(HandoffLines.echo(message)).map(Array.init), message)
        XCTAssertNil(lines.echoed(message))
    }

    func testRepliesAreAcknowledgedByIdAndBatchesWhole() {
        let reply = bytes(#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#)
        let ack = lines.acknowledgement(for: reply)
        XCTAssertEqual(ack, bytes("{\"ack\":\"a\\\"b\"}\n"))
        XCTAssertEqual(HandoffLines.acknowledgedID(Array(ack?.dropLast() ?? [])), #""a\"b""#)
        XCTAssertNil(lines.acknowledgement(for: bytes(#"{"jsonrpc":"2.0","method":"resultsUpdated","params":{}}"#)))
        XCTAssertEqual(lines.acknowledgement(for: bytes("[{\"id\":1},\n{\"id\":2}]")), bytes("[{\"id\":1}, {\"id\":2}]\n"))
        XCTAssertNil(HandoffLines.acknowledgedID(lines.adopted))
    }

    func testReplyIDIsReadFromTheFirstBytesOnly() {
        XCTAssertEqual(ReplyID.peek(bytes(#"{"jsonrpc":"2.0","id":-12,"result":null}"#)), "-12")
        XCTAssertEqual(ReplyID.peek(bytes(#"{"jsonrpc":"2.0","id":"x\\","error":{}}"#)), #""x\\""#)
        XCTAssertNil(ReplyID.peek(bytes(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#)), "a request is not a reply")
        XCTAssertNil(ReplyID.peek(bytes(#"{"id":1,"jsonrpc":"2.0","result":1}"#)), "another key order is parsed in full")
        XCTAssertNil(ReplyID.peek(bytes(#"{"jsonrpc":"2.0","id":"#)))
    }
}
