import Foundation
import Glibc
import XCTest
@testable import QuarryTransport

/// The stdio connection, driven through pipes, files and /dev/null injected in
/// place of fds 0/1 (`attachStreams` is what `attachStdio` calls). Properties checked:
/// 1. Echo over pipes; EOF on input reports didClose while output stays writable.
/// 2. A regular file as input is read to its end (final unterminated line included).
/// 3. /dev/null as input closes at once; a regular file as output receives framed bytes.
final class TransportStdioTests: XCTestCase {
    private func pipePair() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        return (fds[0], fds[1])
    }

    func testEchoOverPipesAndEOFKeepsOutputWritable() throws {
        let input = pipePair(), output = pipePair()
        let server = try RunningTransport { try $0.attachStreams(input: input.read, output: output.write) }
        close(input.read)
        close(output.write)
        let peer = TestClient(readFD: output.read, writeFD: input.write)
        let id = try XCTUnwrap(server.delegate.opened(count: 1).first)
        XCTAssertEqual(server.delegate.events.first, .open(id, .stdio))

        for i in 0..<3 {
            peer.send("{\"n\":\(i)}", framing: .contentLength)
            XCTAssertEqual(peer.nextText(), "{\"n\":\(i)}")
        }
        peer.closeWrite()
        XCTAssertNotNil(server.delegate.waitUntil { $0.closed(id) })
        server.transport.send(Array("{\"late\":true}".utf8), to: id)
        XCTAssertEqual(peer.nextText(), "{\"late\":true}")
        XCTAssertTrue(server.stop())
        XCTAssertTrue(peer.readsEOF(), "stop closes stdout")
    }

    func testNonBlockingModeDoesNotLeakIntoTheCallersDescriptors() throws {
        // libuv makes its pipes non-blocking; a stderr sharing stdout's file
        // description (2>&1) would then see EAGAIN. Our reopened descriptors keep it to us.
        let input = pipePair(), output = pipePair()
        let server = try RunningTransport { try $0.attachStreams(input: input.read, output: output.write) }
        let peer = TestClient(readFD: output.read, writeFD: input.write)
        peer.send("{}\n")
        XCTAssertEqual(peer.nextText(), "{}")
        XCTAssertEqual(fcntl(output.write, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertEqual(fcntl(input.read, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertTrue(server.stop())
        close(input.read)
        close(output.write)
    }

    func testClosedStandardDescriptorsAreReopenedOnDevNull() throws {
        let saved = dup(STDIN_FILENO)
        defer {
            dup2(saved, STDIN_FILENO)
            close(saved)
        }
        close(STDIN_FILENO)
        _ = Transport(log: { _ in })
        var info = stat(), devNull = stat()
        XCTAssertEqual(fstat(STDIN_FILENO, &info), 0, "fd 0 is open again")
        XCTAssertEqual(stat("/dev/null", &devNull), 0)
        XCTAssertEqual(info.st_rdev, devNull.st_rdev)
    }

    func testRegularFileAsInput() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/input.ndjson"
        let file = try XCTUnwrap(fopen(path, "w"))
        fputs("{\"a\":1}\n\n{\"b\":2}", file)
        fclose(file)
        let inputFD = open(path, O_RDONLY)
        let output = pipePair()
        let server = try RunningTransport { try $0.attachStreams(input: inputFD, output: output.write) }
        close(inputFD)
        close(output.write)
        let peer = TestClient(readFD: output.read, writeFD: -1)
        XCTAssertEqual(peer.nextText(), "{\"a\":1}")
        XCTAssertEqual(peer.nextText(), "{\"b\":2}")
        let id = try XCTUnwrap(server.delegate.opened(count: 1).first)
        XCTAssertNotNil(server.delegate.waitUntil { $0.closed(id) })
        XCTAssertTrue(server.stop())
    }

    func testDevNullInputAndRegularFileOutput() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/output"
        let outputFD = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let inputFD = open("/dev/null", O_RDONLY)
        let server = try RunningTransport { try $0.attachStreams(input: inputFD, output: outputFD) }
        close(inputFD)
        close(outputFD)
        let id = try XCTUnwrap(server.delegate.opened(count: 1).first)
        XCTAssertNotNil(server.delegate.waitUntil { $0.closed(id) }, "EOF at once")
        server.transport.send(Array("{\"bye\":1}".utf8), to: id)
        XCTAssertTrue(server.stop())
        let written = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(written, "Content-Length: 9\r\n\r\n{\"bye\":1}")
    }
}
