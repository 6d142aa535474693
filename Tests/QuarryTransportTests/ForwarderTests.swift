import Foundation
import Glibc
import XCTest
@testable import QuarryTransport

/// `quarry connect` with pipes in place of stdin/stdout. Properties checked:
/// 1. Bytes go through unchanged both ways; the daemon closing ends it with 0.
/// 2. With no daemon, `startDaemon` is called and the connection retried.
/// 3. With no daemon and no way to start one, it throws.
final class ForwarderTests: XCTestCase {
    private final class Outcome: @unchecked Sendable {
        var code: Int32?
        var error: Error?
    }

    func testForwardsBothWaysAndStartsTheDaemon() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/quarry.sock"
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&input), 0)
        XCTAssertEqual(pipe(&output), 0)
        let (inRead, inWrite, outRead, outWrite) = (input[0], input[1], output[0], output[1])

        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        var daemon: RunningTransport?
        let startDaemon = {
            daemon = try RunningTransport { try $0.listen(on: SocketListenerOptions(path: path)) }
            started.signal()
        }
        nonisolated(unsafe) let start: (() throws -> Void)? = startDaemon
        Thread {
            do {
                outcome.code = try Forwarder.run(socketPath: path, input: inRead, output: outWrite,
                                                 startDaemon: start, log: { _ in })
            } catch {
                outcome.error = error
            }
            done.signal()
        }.start()

        XCTAssertEqual(started.wait(timeout: .now() + 30), .success)
        let server = try XCTUnwrap(daemon)
        let peer = TestClient(readFD: outRead, writeFD: inWrite)
        peer.send("{\"via\":\"forwarder\"}\n")
        XCTAssertEqual(peer.nextText(), "{\"via\":\"forwarder\"}")
        peer.closeWrite()
        let id = try XCTUnwrap(server.delegate.opened(count: 1).first)
        XCTAssertNotNil(server.delegate.waitUntil { $0.closed(id) }, "stdin EOF reaches the daemon")
        server.transport.close(id)
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.code, 0)
        server.stop()
        close(inRead)
        close(outWrite)
    }

    func testNoDaemonAndNoWayToStartOneThrows() throws {
        let directory = try TemporaryDirectory()
        XCTAssertThrowsError(try Forwarder.run(socketPath: directory.path + "/none.sock", input: -1, output: -1,
                                               startDaemon: nil, log: { _ in }))
    }
}
