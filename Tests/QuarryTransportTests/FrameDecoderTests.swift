import XCTest
@testable import QuarryTransport

/// Properties checked:
/// 1. Both framings decode identically whether bytes arrive one at a time or all at once.
/// 2. Header names are case-insensitive; Content-Type and unknown headers are ignored.
/// 3. Every `FramingError` is produced, and the stream stays usable after each.
/// 4. An oversized Content-Length is refused before any body is buffered.
final class FrameDecoderTests: XCTestCase {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func frame(_ text: String) -> FrameEvent { .frame(bytes(text)) }

    private func feedAll(_ input: [UInt8], limit: Int = 1 << 20) -> [FrameEvent] {
        var decoder = FrameDecoder(maxMessageSize: limit)
        return decoder.feed(input) + decoder.finish()
    }

    private func feedBytewise(_ input: [UInt8], limit: Int = 1 << 20) -> [FrameEvent] {
        var decoder = FrameDecoder(maxMessageSize: limit)
        var events: [FrameEvent] = []
        for byte in input { events += decoder.feed([byte]) }
        return events + decoder.finish()
    }

    func testContentLengthFramesOneByteAtATimeAndAllAtOnce() {
        let input = bytes("Content-Length: 7\r\n\r\n{\"a\":1}content-length:2\r\n\r\n[]")
        let expected = [frame("{\"a\":1}"), frame("[]")]
        XCTAssertEqual(feedAll(input), expected)
        XCTAssertEqual(feedBytewise(input), expected)
    }

    func testMixedHeadersAreCaseInsensitiveAndContentTypeIsIgnored() {
        let input = bytes(
            "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:   3 \r\n\r\nabc"
                + "X-Other: 1\r\ncontent-Length: 2\r\n\r\nde")
        XCTAssertEqual(feedBytewise(input), [frame("abc"), frame("de")])
        var decoder = FrameDecoder()
        _ = decoder.feed(input)
        XCTAssertEqual(decoder.framing, .contentLength)
    }

    func testStrayNewlinesBetweenFramesAreTolerated() {
        let input = bytes("Content-Length: 2\r\n\r\n{}\n\r\nContent-Length: 2\r\n\r\n[]")
        XCTAssertEqual(feedBytewise(input), [frame("{}"), frame("[]")])
    }

    func testManyFramesInOneRead() {
        let payloads = (0..<500).map { "{\"id\":\($0)}" }
        let input = payloads.flatMap { FrameEncoder.encode(bytes($0), as: .contentLength) }
        XCTAssertEqual(feedAll(input), payloads.map(frame))
        let lines = payloads.flatMap { FrameEncoder.encode(bytes($0), as: .newlineDelimited) }
        XCTAssertEqual(feedAll(lines), payloads.map(frame))
    }

    func testNewlineDelimitedToleratesCRLFBlankLinesAndLeadingWhitespace() {
        let input = bytes("  \n{\"a\":1}\r\n\r\n   \n[2]\n{\"b\":3}\n")
        let expected = [frame("{\"a\":1}"), frame("[2]"), frame("{\"b\":3}")]
        XCTAssertEqual(feedAll(input), expected)
        XCTAssertEqual(feedBytewise(input), expected)
        var decoder = FrameDecoder()
        _ = decoder.feed(input)
        XCTAssertEqual(decoder.framing, .newlineDelimited)
    }

    func testFinalLineWithoutNewlineIsDeliveredAtEOF() {
        var decoder = FrameDecoder()
        XCTAssertEqual(decoder.feed(bytes("{\"a\":1}\n{\"b\"")), [frame("{\"a\":1}")])
        XCTAssertEqual(decoder.finish(), [frame("{\"b\"")])
    }

    func testOversizeContentLengthIsRefusedWithoutBufferingAndBodyIsSkipped() {
        var decoder = FrameDecoder(maxMessageSize: 1024)
        let events = decoder.feed(bytes("Content-Length: 2147483648\r\n\r\n"))
        XCTAssertEqual(events, [.error(.messageTooLarge(declared: 2_147_483_648, limit: 1024))])
        // Stream 4 MiB of the refused body: nothing comes out, nothing accumulates.
        let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)
        for _ in 0..<64 { XCTAssertEqual(decoder.feed(chunk), []) }
        XCTAssertEqual(decoder.finish(), [], "the refused body was already reported")
    }

    func testDiscardsExactlyTheDeclaredBodyThenContinues() {
        let body = String(repeating: "x", count: 40)
        let input = bytes("Content-Length: 40\r\n\r\n\(body)Content-Length: 2\r\n\r\nok")
        let expected: [FrameEvent] = [.error(.messageTooLarge(declared: 40, limit: 10)), frame("ok")]
        XCTAssertEqual(feedAll(input, limit: 10), expected)
        XCTAssertEqual(feedBytewise(input, limit: 10), expected)
    }

    func testLineTooLongIsDiscardedToTheNextNewline() {
        let long = String(repeating: "y", count: 50)
        let input = bytes("[\"\(long)\"]\n[1]\n")
        let expected: [FrameEvent] = [.error(.lineTooLong(limit: 20)), frame("[1]")]
        XCTAssertEqual(feedAll(input, limit: 20), expected)
        XCTAssertEqual(feedBytewise(input, limit: 20), expected)
    }

    /// Found by the frames fuzz target: a last line without its newline was
    /// delivered whatever its size.
    func testFinalLineOverTheLimitIsRefusedAtEOF() {
        var decoder = FrameDecoder(maxMessageSize: 10)
        XCTAssertEqual(decoder.feed(bytes("[1]\n[\"abcdefgh\"")), [frame("[1]")])
        XCTAssertEqual(decoder.finish(), [.error(.lineTooLong(limit: 10))])
    }

    func testLineOfExactlyTheLimitIsAccepted() {
        let line = "[" + String(repeating: "1", count: 8) + "]"  // 10 bytes
        XCTAssertEqual(feedBytewise(bytes(line + "\r\n"), limit: 10), [frame(line)])
    }

    func testInvalidHeaders() {
        let cases: [(String, String)] = [
            ("Content-Length: abc\r\n\r\n", "Content-Length is not a decimal number"),
            ("Content-Length: \r\n\r\n", "empty Content-Length"),
            ("Content-Type: text/plain\r\n\r\n", "missing Content-Length header"),
            ("Content-Length 5\r\n\r\n", "malformed header line (no colon)"),
            ("Content-Length: 99999999999999999999999\r\n\r\n", "Content-Length out of range"),
            ("Content-Length: 1\r\nContent-Length: 2\r\n\r\n", "conflicting Content-Length headers"),
        ]
        for (header, message) in cases {
            let events = feedBytewise(bytes(header + "Content-Length: 2\r\n\r\n{}"))
            XCTAssertEqual(events, [.error(.invalidHeader(message)), frame("{}")], header)
        }
    }

    func testHeaderOver8KiBIsRejectedAndSkipped() {
        // Its body length cannot be trusted, so only the header block is skipped.
        let huge = "X-Padding: " + String(repeating: "p", count: 9000) + "\r\n\r\n"
        let input = bytes(huge + "Content-Length: 2\r\n\r\nok")
        for events in [feedAll(input), feedBytewise(input)] {
            XCTAssertEqual(events.count, 2)
            guard case .error(.invalidHeader(let message)) = events.first else {
                return XCTFail("expected invalidHeader, got \(events)")
            }
            XCTAssertTrue(message.contains("8192"), message)
            XCTAssertEqual(events.last, frame("ok"))
        }
    }

    func testTruncatedBodyAtEOF() {
        var decoder = FrameDecoder()
        XCTAssertEqual(decoder.feed(bytes("Content-Length: 10\r\n\r\nabc")), [])
        XCTAssertEqual(decoder.finish(), [.error(.truncatedAtEOF(missing: 7))])
    }

    func testTruncatedHeaderAtEOFAndTrailingWhitespaceIsIgnored() {
        XCTAssertEqual(feedAll(bytes("Content-Len")), [.error(.truncatedAtEOF(missing: 0))])
        XCTAssertEqual(feedAll(bytes("Content-Length: 2\r\n\r\n{}\r\n")), [frame("{}")])
        XCTAssertEqual(feedAll(bytes("   \n\n")), [])
    }

    func testErrorsDescribeThemselves() {
        XCTAssertEqual("\(FramingError.messageTooLarge(declared: 10, limit: 5))",
                       "message of 10 bytes exceeds the limit of 5 bytes")
        XCTAssertEqual("\(FramingError.invalidHeader("missing Content-Length header"))",
                       "invalid header: missing Content-Length header")
    }

    func testEmptyBody() {
        XCTAssertEqual(feedBytewise(bytes("Content-Length: 0\r\n\r\n")), [.frame([])])
    }

    func testEncoderRoundTripsThroughDecoder() {
        let payload = bytes("{\"jsonrpc\":\"2.0\",\"id\":1}")
        for framing in [Framing.contentLength, .newlineDelimited] {
            XCTAssertEqual(feedBytewise(FrameEncoder.encode(payload, as: framing)), [.frame(payload)])
        }
    }

    /// Large frames read in the chunks a socket gives: sent one at a time, as by a client waiting for each
    /// reply, each ends with a read (and is handed over whole); sent back to back, most share a read with
    /// the next (and are copied out). And a line whose `\r` and `\n` come in two reads.
    func testLargeFramesReadInChunksComeOutExact() {
        let payloads = [70_000, 200_000, 131_072, 5, 199_000].map { size in
            bytes("{\"a\":\"") + (0..<size).map { UInt8(97 + $0 % 26) } + bytes("\"}")
        }
        func chunks(_ input: [UInt8], of size: Int) -> [[UInt8]] {
            stride(from: 0, to: input.count, by: size).map { Array(input[$0..<min(input.count, $0 + size)]) }
        }
        for framing in [Framing.contentLength, .newlineDelimited] {
            let framed = payloads.map { FrameEncoder.encode($0, as: framing) }
            for size in [65_536, 70_025, 4_096] {
                for reads in [framed.flatMap { chunks($0, of: size) }, chunks(framed.flatMap { $0 }, of: size)] {
                    var decoder = FrameDecoder()
                    let events = reads.flatMap { decoder.feed($0) } + decoder.finish()
                    XCTAssert(events == payloads.map { .frame($0) }, "\(framing) in reads of \(size): \(events.count) events")
                }
            }
        }
        var decoder = FrameDecoder()
        XCTAssertEqual(decoder.feed(bytes("{\"a\":1}\r")), [])
        XCTAssertEqual(decoder.feed(bytes("\n")), [frame("{\"a\":1}")])
    }
}
