import Foundation
import QuarrySync
@testable import QuarryTypesense
import XCTest

/// `SocketTransport` and `HTTPWire` against a scripted server, for what a healthy node never does:
/// 1. answers framed by `Content-Length`, by chunks (with an extension and a trailer) and by the
///    connection's end; a kept connection carries the next request, a `Connection: close` does not;
/// 2. a kept connection the server closed while idle is not used: the next request opens another;
/// 3. no answer is `.timedOut`, a connection closed mid-answer `.connectionLost`, a malformed or
///    compressed answer an error naming it; none of these is `requestNotSent`;
/// 4. `HTTPWire` waits for the whole answer however it is cut.
final class SocketTransportTests: XCTestCase {
    /// Accepts connections on 127.0.0.1; for each request read, `reply` says what to write back
    /// (nil: write nothing) and whether to close the connection after it.
    final class ScriptedServer: @unchecked Sendable {
        let port: Int
        private let fd: Int32
        let accepted = Locked(0)
        let requests = Locked<[String]>([])
        private let reply: @Sendable (Int) -> (bytes: [UInt8]?, close: Bool)

        init(reply: @escaping @Sendable (_ request: Int) -> (bytes: [UInt8]?, close: Bool)) throws {
            self.reply = reply
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            fd = listener
            port = Int(UInt16(bigEndian: address.sin_port))
            Thread.detachNewThread { [self] in serve() }
        }

        func stop() {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }

        private func serve() {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                accepted.withLock { $0 += 1 }
                Thread.detachNewThread { [self] in converse(client) }
            }
        }

        private func converse(_ client: Int32) {
            defer { close(client) }
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                while !buffer.isEmpty, let end = Self.requestEnd(buffer) {
                    let text = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeFirst(end)
                    let index = requests.withLock { $0.append(text); return $0.count - 1 }
                    let (bytes, close) = reply(index)
                    if let bytes { _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
                    if close { return }
                }
                let n = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { return }
                buffer.append(contentsOf: chunk[..<n])
            }
        }

        /// Where a whole request (head and `Content-Length` body) ends.
        static func requestEnd(_ buffer: [UInt8]) -> Int? {
            let text = String(decoding: buffer, as: UTF8.self)
            guard let head = text.range(of: "\r\n\r\n") else { return nil }
            let headBytes = text.utf8.distance(from: text.startIndex, to: head.upperBound)
            let length = text[..<head.lowerBound].split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            return buffer.count >= headBytes + length ? headBytes + length : nil
        }
    }

    func get(_ server: ScriptedServer, timeout: Double = 5) -> HTTPRequest {
        HTTPRequest(method: .get, baseURL: "http://127.0.0.1:\(server.port)", target: "/health", timeout: timeout)
    }

    static func ok(_ body: String, _ extra: String = "") -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\(extra)\r\n\(body)".utf8)
    }

    func testFramingsAndKeptConnections() throws {
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=1\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-T: y\r\n\r\n".utf8)
        let replies: [(bytes: [UInt8]?, close: Bool)] = [
            (Self.ok("one"), false), (chunked, false), (Self.ok("three", "Connection: close\r\n"), true),
            (Array("HTTP/1.0 200 OK\r\n\r\nto the end".utf8), true), (Self.ok("five"), false),
        ]
        let server = try ScriptedServer { replies[$0] }
        defer { server.stop() }
        let transport = SocketTransport()
        let bodies = try (0..<5).map { _ in String(decoding: try transport.send(get(server)).body, as: UTF8.self) }
        XCTAssertEqual(bodies, ["one", #"{"a":1}"#, "three", "to the end", "five"])
        XCTAssertEqual(server.accepted.withLock { $0 }, 3, "one connection for the first three, then one each after a close")
        XCTAssertTrue(server.requests.withLock { $0[0] }.hasPrefix("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"))
    }

    func testAConnectionClosedWhileIdleIsNotReused() throws {
        let server = try ScriptedServer { _ in (Self.ok("fine"), true) }  // answers, then closes
        defer { server.stop() }
        let transport = SocketTransport()
        for _ in 0..<3 {
            XCTAssertEqual(try transport.send(get(server)).body, Array("fine".utf8))
            Thread.sleep(forTimeInterval: 0.05)  // idle, as a node's keep-alive timeout closes a connection
        }
        XCTAssertEqual(server.accepted.withLock { $0 }, 3)
    }

    func testFailuresAreTypedAndNeverNotSent() throws {
        let cases: [(reply: [UInt8]?, kind: HTTPTransportError.Kind, detail: String)] = [
            (nil, .timedOut, "timed out"),
            (Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf".utf8), .connectionLost, "mid-answer"),
            (Array("SSH-2.0-x\r\n\r\n".utf8), .other, "status line"),
            (Self.ok("x", "Content-Encoding: gzip\r\n"), .other, "gzip"),
        ]
        for (reply, kind, detail) in cases {
            let server = try ScriptedServer { _ in (reply, reply != nil) }
            defer { server.stop() }
            XCTAssertThrowsError(try SocketTransport().send(get(server, timeout: 0.5))) { error in
                guard let error = error as? HTTPTransportError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.kind, kind, "\(error)")
                XCTAssertTrue(error.description.contains(detail), "\(error)")
                XCTAssertFalse(error.requestNotSent)
            }
        }
    }

    func testAnAnswerIsReadWholeHoweverItIsCut() throws {
        let whole = Array("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n1\r\nc\r\n0\r\n\r\n".utf8)
        for cut in 0..<whole.count {
            XCTAssertNil(try HTTPWire.answer(in: Array(whole[..<cut]), closed: false), "cut at \(cut)")
        }
        let answer = try XCTUnwrap(try HTTPWire.answer(in: whole + Array("HTTP/1.1".utf8), closed: false))
        XCTAssertEqual(answer.response, HTTPResponse(status: 201, body: Array("abc".utf8)))
        XCTAssertEqual(answer.length, whole.count)
        XCTAssertTrue(answer.keepAlive)
        let noBody = try XCTUnwrap(try HTTPWire.answer(in: Array("HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n".utf8), closed: false))
        XCTAssertEqual(noBody.response.body, [])
    }

    func testRequestsCarryTheirLengthAndHeaders() {
        let post = HTTPRequest(method: .post, baseURL: "http://h:1", target: "/multi_search?x=1", headers: ["A": "b"],
                               body: Array("{}".utf8), timeout: 1)
        XCTAssertEqual(String(decoding: HTTPWire.request(post, host: "h:1"), as: UTF8.self),
                       "POST /multi_search?x=1 HTTP/1.1\r\nHost: h:1\r\nA: b\r\nContent-Length: 2\r\n\r\n{}")
        let get = HTTPRequest(method: .get, baseURL: "http://h:1", target: "/health", timeout: 1)
        XCTAssertEqual(String(decoding: HTTPWire.request(get, host: "h:1"), as: UTF8.self), "GET /health HTTP/1.1\r\nHost: h:1\r\n\r\n")
    }
}
