import Foundation
import QuarryJSON
@testable import QuarryTypesense
import XCTest

/// Both transports (`SocketTransport`, the default, and `URLSessionTransport`, for https) against a
/// real node, and the query encoding.
/// 1. Any status is an answer with its body; no connection is a typed `.cannotConnect`.
/// 2. Query strings survive filter syntax and private-use characters (U+E000) intact.
/// 3. Many threads share one transport.
/// 4. GET /health round trips are timed (`QUARRY_HTTP_BENCH_CALLS`, default 200).
final class HTTPTransportTests: XCTestCase {
    nonisolated(unsafe) static var node: TypesenseTestNode?
    nonisolated(unsafe) static var startError: (any Error)?

    override class func setUp() {
        super.setUp()
        do { node = try TypesenseTestNode.start() } catch { startError = error }
    }

    override class func tearDown() {
        node?.stop()
        node = nil
        super.tearDown()
    }

    var node: TypesenseTestNode!
    let transports: [(name: String, transport: any HTTPTransport)] = [
        ("sockets", SocketTransport.shared), ("URLSession", URLSessionTransport.shared),
    ]

    override func setUpWithError() throws {
        if let error = Self.startError { throw error }
        node = Self.node
    }

    func request(_ method: HTTPMethod, _ target: String, body: String? = nil) -> HTTPRequest {
        HTTPRequest(method: method, baseURL: "http://\(node.address)", target: target,
                    headers: ["X-TYPESENSE-API-KEY": TypesenseTestNode.apiKey], body: body.map { Array($0.utf8) }, timeout: 5)
    }

    func testAnswersCarryStatusAndBody() throws {
        for (name, transport) in transports {
            let health = try transport.send(request(.get, "/health"))
            XCTAssertEqual(health.status, 200, name)
            XCTAssertEqual(try JSONParser.parse(health.body)["ok"], true, name)

            let missing = try transport.send(request(.get, "/collections/nope"))
            XCTAssertEqual(missing.status, 404, name)
            XCTAssertEqual(try JSONParser.parse(missing.body)["message"], "Not Found", name)

            let created = try transport.send(
                request(.post, "/collections", body: #"{"name":"t_\#(name)","fields":[{"name":"s","type":"string"}]}"#))
            XCTAssertEqual(created.status, 201, name)
            XCTAssertEqual(try JSONParser.parse(created.body)["name"], .string("t_\(name)"), name)
        }
    }

    func testNoListenerIsCannotConnect() throws {
        let port = try TypesenseTestNode.freePort()
        let request = HTTPRequest(method: .get, baseURL: "http://127.0.0.1:\(port)", target: "/health", timeout: 2)
        for (name, transport) in transports {
            XCTAssertThrowsError(try transport.send(request), name) { error in
                let transportError = error as? HTTPTransportError
                XCTAssertEqual(transportError?.kind, .cannotConnect, "\(name): \(error)")
                XCTAssertEqual(transportError?.requestNotSent, true, name)
            }
        }
    }

    func testManyThreadsShareTheTransport() {
        let health = request(.get, "/health")
        for (name, transport) in transports {
            let failures = NSLock()
            nonisolated(unsafe) var failed = 0
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                for _ in 0..<25 {
                    if (try? transport.send(health))?.status != 200 { failures.withLock { failed += 1 } }
                }
            }
            XCTAssertEqual(failures.withLock { failed }, 0, name)
        }
    }

    func testQueryEncodingKeepsEveryCharacter() {
        XCTAssertEqual(URLQuery.escape("a-z_0.9~"), "a-z_0.9~")
        XCTAssertEqual(URLQuery.escape("f:=[`a b`,c]&&n:>3"), "f%3A%3D%5B%60a%20b%60%2Cc%5D%26%26n%3A%3E3")
        XCTAssertEqual(URLQuery.escape("\u{E000}é+"), "%EE%80%80%C3%A9%2B")
        XCTAssertEqual(URLQuery.encode(["q": "x y", "per_page": 10, "prefix": false, "w": 1.5]),
                       "q=x%20y&per_page=10&prefix=false&w=1.5")
        XCTAssertEqual(TypesenseRequest.path("collections", "c", "documents", "a/b c"), "/collections/c/documents/a%2Fb%20c")
    }

    func testHealthRoundTripLatency() throws {
        let calls = Int(ProcessInfo.processInfo.environment["QUARRY_HTTP_BENCH_CALLS"] ?? "") ?? 200
        let health = request(.get, "/health")
        for (name, transport) in transports {
            _ = try transport.send(health)
            var times: [Double] = []
            times.reserveCapacity(calls)
            for _ in 0..<calls {
                let start = ContinuousClock.now
                let response = try transport.send(health)
                times.append(Double((ContinuousClock.now - start) / .microseconds(1)) / 1000)
                XCTAssertEqual(response.status, 200)
            }
            times.sort()
            let p50 = times[times.count / 2], p99 = times[min(times.count - 1, times.count * 99 / 100)]
            print("GET /health over \(name), \(calls) calls: p50 \(p50) ms, p99 \(p99) ms")
        }
    }
}
