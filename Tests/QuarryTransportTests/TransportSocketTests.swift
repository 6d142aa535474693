import Foundation
import Glibc
import XCTest
@testable import QuarryTransport

/// A real Transport on a temporary Unix socket. Properties checked:
/// 1. Echo round trips in both framings, replies framed as the client framed.
/// 2. Several clients at once each get exactly their own replies, in order.
/// 3. A client that never reads neither blocks the loop nor other clients; its
///    coalescable frames are superseded, and it is cut off past the hard cap.
/// 4. Framing errors reach the delegate and the connection stays usable.
/// 5. Socket files: stale replaced, live refused, too long refused, removed on stop.
/// 6. A peer that closes its socket is lost (`didLosePeer`); one that only shuts down its write side is not.
final class TransportSocketTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var socketPath: String { directory.path + "/quarry.sock" }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    private func start(_ configuration: TransportConfiguration = .init()) throws -> RunningTransport {
        try RunningTransport(configuration: configuration) { try $0.listen(on: SocketListenerOptions(path: socketPath)) }
    }

    func testEchoRoundTripInBothFramings() throws {
        let server = try start()
        for framing in [Framing.contentLength, .newlineDelimited] {
            let client = try TestClient(socketPath: socketPath)
            for i in 0..<3 {
                client.send("{\"id\":\(i)}", framing: framing)
                XCTAssertEqual(client.nextText(), "{\"id\":\(i)}")
            }
            for byte in FrameEncoder.encode(Array("{\"slow\":true}".utf8), as: framing) { client.send([byte]) }
            XCTAssertEqual(client.nextText(), "{\"slow\":true}")
        }
        XCTAssertEqual(server.delegate.opened(count: 2).count, 2)
        XCTAssertTrue(server.stop())
    }

    func testRepliesUseTheClientsFraming() throws {
        let server = try start()
        let client = try TestClient(socketPath: socketPath)
        client.send("[1]\n")
        var raw = [UInt8](repeating: 0, count: 16)
        let n = raw.withUnsafeMutableBytes { read(client.readFD, $0.baseAddress, $0.count) }
        XCTAssertEqual(Array(raw[..<max(n, 0)]), Array("[1]\n".utf8))
        server.stop()
    }

    func testLargeFramesRoundTripInBothFramings() throws {
        let server = try start()
        let body = "[" + String(repeating: "\"0123456789\",", count: 500_000) + "0]"  // ~6.5 MB
        for framing in [Framing.contentLength, .newlineDelimited] {
            let client = try TestClient(socketPath: socketPath)
            client.send(body, framing: framing)
            let echoed = client.nextText()
            XCTAssertTrue(echoed == body, "\(framing): \(echoed?.utf8.count ?? -1) bytes back of \(body.utf8.count)")
        }
        server.stop()
    }

    func testSeveralClientsAtOnce() throws {
        let server = try start()
        let clients = try (0..<8).map { _ in try TestClient(socketPath: socketPath) }
        for round in 0..<50 {
            for (c, client) in clients.enumerated() {
                client.send("{\"client\":\(c),\"round\":\(round)}", framing: c % 2 == 0 ? .contentLength : .newlineDelimited)
            }
            for (c, client) in clients.enumerated() {
                XCTAssertEqual(client.nextText(), "{\"client\":\(c),\"round\":\(round)}")
            }
        }
        XCTAssertTrue(server.stop())
        let events = server.delegate.events
        XCTAssertEqual(events.openIDs.count, 8)
        XCTAssertTrue(events.openIDs.allSatisfy { events.closed($0) }, "stop closes every connection")
    }

    func testManyClientsOnManyThreads() throws {
        let server = try start()
        let path = socketPath
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: 32) { c in
            guard let client = try? TestClient(socketPath: path) else { return mismatches.add() }
            for round in 0..<20 {
                let text = "{\"client\":\(c),\"round\":\(round)}"
                client.send(text, framing: c % 4 < 2 ? .contentLength : .newlineDelimited)
                if client.nextText() != text { mismatches.add() }
                if round == 0 && c % 2 == 1 { break }  // odd clients leave early, mid-stream for others
            }
        }
        XCTAssertEqual(mismatches.value, 0)
        XCTAssertTrue(server.stop())
        XCTAssertEqual(server.delegate.events.openIDs.count, 32)
    }

    func testClientThatNeverReadsDoesNotBlockOthersAndIsCoalesced() throws {
        var configuration = TransportConfiguration()
        configuration.coalescingThreshold = 64 * 1024
        let server = try start(configuration)
        let sluggish = try TestClient(socketPath: socketPath)
        sluggish.send("{\"hello\":1}", framing: .contentLength)
        let sluggishID = try XCTUnwrap(server.delegate.opened(count: 1).first)
        server.delegate.waitUntil { $0.contains(.receive(sluggishID, Array("{\"hello\":1}".utf8))) }
        let reader = try TestClient(socketPath: socketPath)

        let frameSize = 100 * 1024
        for i in 0..<40 {
            server.transport.send([UInt8](repeating: UInt8(i), count: frameSize), to: sluggishID, coalescingKey: "results")
            reader.send("{\"ping\":\(i)}", framing: .newlineDelimited)
            XCTAssertEqual(reader.nextText(), "{\"ping\":\(i)}")
        }
        server.transport.send(Array("END".utf8), to: sluggishID)
        reader.send("{\"ping\":\"last\"}", framing: .newlineDelimited)
        XCTAssertEqual(reader.nextText(), "{\"ping\":\"last\"}")  // mailbox is FIFO: END is queued by now

        XCTAssertEqual(sluggish.nextText(), "{\"hello\":1}")
        var received: [UInt8] = []
        while let event = sluggish.next(), case .frame(let payload) = event, payload != Array("END".utf8) {
            let index = try XCTUnwrap(payload.first)
            XCTAssertTrue(payload.count == frameSize && payload.allSatisfy { $0 == index }, "frame \(index) intact")
            received.append(index)
        }
        XCTAssertLessThan(received.count, 40, "older frames with the same key were superseded")
        XCTAssertEqual(received.last, 39, "the newest frame is always delivered")
        XCTAssertEqual(received, received.sorted(), "order is kept")
        server.stop()
    }

    func testSlowConsumerOverTheHardCapIsClosed() throws {
        var configuration = TransportConfiguration()
        configuration.maxQueuedBytes = 1 << 20
        let server = try start(configuration)
        let sluggish = try TestClient(socketPath: socketPath)
        let id = try XCTUnwrap(server.delegate.opened(count: 1).first)
        let other = try TestClient(socketPath: socketPath)
        for _ in 0..<40 { server.transport.send([UInt8](repeating: 7, count: 100 * 1024), to: id) }
        XCTAssertNotNil(server.delegate.waitUntil { $0.closed(id) })
        other.send("{\"still\":\"alive\"}", framing: .contentLength)
        XCTAssertEqual(other.nextText(), "{\"still\":\"alive\"}")
        while sluggish.next() != nil {}  // drains what was in flight, then sees EOF
        server.stop()
    }

    func testFramingErrorsReachTheDelegateAndTheConnectionStaysUsable() throws {
        var configuration = TransportConfiguration()
        configuration.maxMessageSize = 1024
        let server = try start(configuration)
        // Refused from the header alone: the 2 GiB body is never sent, yet the error arrives.
        let huge = try TestClient(socketPath: socketPath)
        huge.send("Content-Length: 2147483648\r\n\r\n")
        let hugeID = try XCTUnwrap(server.delegate.opened(count: 1).first)
        XCTAssertNotNil(server.delegate.waitUntil {
            $0.contains(.fail(hugeID, .messageTooLarge(declared: 2_147_483_648, limit: 1024)))
        })

        // Exactly the declared body is skipped; the next frame is served.
        let client = try TestClient(socketPath: socketPath)
        client.send("Content-Length: 5000\r\n\r\n")
        client.send([UInt8](repeating: 0x20, count: 5000))
        client.send("{\"after\":1}", framing: .contentLength)
        client.send("Content-Length: nope\r\n\r\n")
        client.send("{\"after\":2}", framing: .contentLength)
        XCTAssertEqual(client.nextText(), "{\"after\":1}")
        XCTAssertEqual(client.nextText(), "{\"after\":2}")
        let id = server.delegate.opened(count: 2)[1]
        let failures = server.delegate.events.filter { if case .fail(id, _) = $0 { true } else { false } }
        XCTAssertEqual(failures, [.fail(id, .messageTooLarge(declared: 5000, limit: 1024)),
                                  .fail(id, .invalidHeader("Content-Length is not a decimal number"))])
        server.stop()
    }

    func testCloseFlushesThenClosesAndPeerEOFKeepsRepliesFlowing() throws {
        let server = try start()
        let closer = try TestClient(socketPath: socketPath)
        closer.send("close-me", framing: .contentLength)
        XCTAssertEqual(closer.nextText(), "close-me")
        XCTAssertTrue(closer.readsEOF())
        let closerID = server.delegate.opened(count: 1)[0]
        server.transport.send(Array("ignored".utf8), to: closerID)  // send after close: a no-op
        server.transport.close(closerID)

        let halfClosed = try TestClient(socketPath: socketPath)
        halfClosed.send("{\"last\":1}", framing: .newlineDelimited)
        halfClosed.shutdownWrite()
        let ids = server.delegate.opened(count: 2)
        XCTAssertNotNil(server.delegate.waitUntil { $0.closed(ids[1]) }, "peer EOF is reported")
        server.transport.send(Array("{\"late\":2}".utf8), to: ids[1])
        XCTAssertEqual(halfClosed.nextText(), "{\"last\":1}")
        XCTAssertEqual(halfClosed.nextText(), "{\"late\":2}", "a reply sent after EOF still arrives")
        server.transport.close(ids[1])
        XCTAssertTrue(halfClosed.readsEOF())
        XCTAssertEqual(server.delegate.events.filter { $0 == .close(ids[1]) }.count, 1, "didClose is sent once")
        XCTAssertFalse(server.delegate.events.contains(.lostPeer(ids[1])), "a half-closed peer still reads")
        server.stop()
    }

    func testAPeerThatClosesItsSocketIsLostButOneThatHalfClosesIsNot() throws {
        let server = try start()
        let ids: [ConnectionID]
        let halfClosed: TestClient
        do {
            let gone = try TestClient(socketPath: socketPath)
            halfClosed = try TestClient(socketPath: socketPath)
            ids = server.delegate.opened(count: 2)
            gone.send("{}", framing: .newlineDelimited)
        }  // `gone` closes both directions here
        XCTAssertNotNil(server.delegate.waitUntil { $0.contains(.lostPeer(ids[0])) }, "a closed socket is a lost peer")
        halfClosed.shutdownWrite()
        XCTAssertNotNil(server.delegate.waitUntil { $0.closed(ids[1]) })
        server.transport.send(Array("{\"after\":1}".utf8), to: ids[1])
        XCTAssertEqual(halfClosed.nextText(), "{\"after\":1}")
        XCTAssertFalse(server.delegate.events.contains(.lostPeer(ids[1])), "a half-closed peer still reads")
        let events = server.delegate.events
        let closed = try XCTUnwrap(events.firstIndex(of: .close(ids[0])))
        XCTAssertLessThan(closed, try XCTUnwrap(events.firstIndex(of: .lostPeer(ids[0]))), "didClose comes first")
        server.stop()
    }

    func testStopGivesUpOnAClientThatNeverReads() throws {
        var configuration = TransportConfiguration()
        configuration.stopGracePeriodMilliseconds = 50
        let server = try start(configuration)
        let sluggish = try TestClient(socketPath: socketPath)
        let id = try XCTUnwrap(server.delegate.opened(count: 1).first)
        for _ in 0..<40 { server.transport.send([UInt8](repeating: 1, count: 100 * 1024), to: id) }
        XCTAssertTrue(server.stop(), "run returns although output was still queued")
        XCTAssertTrue(server.delegate.events.closed(id))
        withExtendedLifetime(sluggish) {}
    }

    func testListenWhileRunning() throws {
        let server = try RunningTransport { _ in }
        try server.transport.listen(on: SocketListenerOptions(path: socketPath))
        let client = try TestClient(socketPath: socketPath)  // the fd listens already; accept follows
        client.send("{\"late\":\"listener\"}", framing: .contentLength)
        XCTAssertEqual(client.nextText(), "{\"late\":\"listener\"}")
        XCTAssertTrue(server.stop())
        XCTAssertFalse(directory.exists("quarry.sock"))
    }

    func testStopRemovesTheSocketFileAndRunReturns() throws {
        let server = try start()
        _ = try TestClient(socketPath: socketPath)
        var info = stat()
        XCTAssertEqual(lstat(socketPath, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "only the owner may connect")
        XCTAssertTrue(server.stop())
        XCTAssertFalse(directory.exists("quarry.sock"))
        server.transport.send([1], to: ConnectionID(rawValue: 1))  // no-op after stop
        XCTAssertThrowsError(try server.transport.listen(on: SocketListenerOptions(path: socketPath)))
        XCTAssertFalse(directory.exists("quarry.sock"), "a listen after stop leaves nothing behind")
    }

    func testATransportThatNeverRanReleasesItsSocket() throws {
        do {
            let unused = Transport(log: { _ in })
            try unused.listen(on: SocketListenerOptions(path: socketPath))
            XCTAssertTrue(directory.exists("quarry.sock"))
        }
        XCTAssertFalse(directory.exists("quarry.sock"))
        let server = try start()  // the lock was released too
        server.stop()
    }

    func testStaleSocketIsReplaced() throws {
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(SocketBinder.withAddress(socketPath) { bind(stale, $0, $1) }, 0)
        close(stale)  // the file stays, nobody listens: what a crash leaves behind
        XCTAssertTrue(directory.exists("quarry.sock"))

        let server = try start()
        let client = try TestClient(socketPath: socketPath)
        client.send("{\"ok\":true}", framing: .newlineDelimited)
        XCTAssertEqual(client.nextText(), "{\"ok\":true}")
        server.stop()
    }

    func testLiveSocketMeansAlreadyRunning() throws {
        let server = try start()
        let second = Transport(log: { _ in })
        XCTAssertThrowsError(try second.listen(on: SocketListenerOptions(path: socketPath))) { error in
            XCTAssertEqual(error as? TransportError, .alreadyRunning(path: socketPath))
            XCTAssertTrue("\(error)".contains("already running at \(socketPath)"))
        }
        server.stop()

        // Without the lock held (a daemon of another build), the connect probe decides.
        let foreign = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(foreign) }
        XCTAssertEqual(SocketBinder.withAddress(socketPath) { bind(foreign, $0, $1) }, 0)
        XCTAssertEqual(listen(foreign, 8), 0)
        XCTAssertThrowsError(try second.listen(on: SocketListenerOptions(path: socketPath))) { error in
            XCTAssertEqual(error as? TransportError, .alreadyRunning(path: socketPath))
        }
        XCTAssertTrue(directory.exists("quarry.sock"), "a live socket is never removed")
    }

    func testRefusesPathsTooLongOrNotSockets() throws {
        let transport = Transport(log: { _ in })
        let long = directory.path + "/" + String(repeating: "s", count: 120)
        XCTAssertThrowsError(try transport.listen(on: SocketListenerOptions(path: long))) { error in
            guard case TransportError.socketPathTooLong(_, let bytes, 107) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(bytes, long.utf8.count)
        }
        let file = fopen(socketPath, "w")
        fclose(file)
        XCTAssertThrowsError(try transport.listen(on: SocketListenerOptions(path: socketPath))) { error in
            XCTAssertEqual(error as? TransportError, .notASocket(path: socketPath))
        }
        XCTAssertTrue(directory.exists("quarry.sock"))
    }

    func testStopBeforeRunReturnsAndTerminationSignalIsReported() throws {
        let idle = Transport(log: { _ in })
        idle.stop()
        idle.run(delegate: RecordingDelegate())  // returns at once

        let server = try start()
        let client = try TestClient(socketPath: socketPath)
        client.send("{}", framing: .newlineDelimited)
        XCTAssertEqual(client.nextText(), "{}")  // the loop is up, so its signal watchers are
        kill(getpid(), SIGTERM)
        XCTAssertNotNil(server.delegate.waitUntil { $0.contains(.signal(SIGTERM)) })
        XCTAssertTrue(server.stop())
    }
}

/// A thread-safe tally for tests that run clients in parallel.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0  // guarded by lock
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
