import XCTest
@testable import QuarryWeb

/// The Host, Origin and key decisions of protocol/keys.md, on header values alone:
/// 1. Host: loopback names (with or without port, IPv4, IPv6, localhost) pass; other names and malformed
///    values are refused, unless configured.
/// 2. Origin: absent passes (not a browser); the page's own origin and configured ones pass; others are refused.
/// 3. Keys: by Bearer header or subprotocol; none is 401 missing, another is 401 wrong; each key's access.
/// 4. CORS only for configured origins.
final class RequestGuardTests: XCTestCase {
    let keys = WebKeys(admin: String(repeating: "a", count: 64), search: String(repeating: "b", count: 64))

    func testLoopbackHostsPassAndOthersAreRefused() {
        let guardian = RequestGuard(keys: keys)
        for host in ["127.0.0.1:7700", "127.0.0.1", "localhost:7700", "LOCALHOST", "[::1]:7700", "[::1]", "127.1.2.3:80",
                     "app.localhost:7700"] {
            XCTAssertNil(guardian.checkHost(host), host)
        }
        for host in [nil, "", "evil.example", "evil.example:7700", "127.0.0.1.evil.example", "10.0.0.1:7700",
                     "[::2]:7700", "127.0.0.1:7700:1", "localhost:port", "[::1", "0.0.0.0:7700"] {
            XCTAssertEqual(guardian.checkHost(host), .foreignHost, host ?? "nil")
        }
    }

    func testConfiguredHostPasses() {
        let guardian = RequestGuard(keys: keys, allowedHosts: ["Quarry.LAN"])
        XCTAssertNil(guardian.checkHost("quarry.lan:7700"))
        XCTAssertEqual(guardian.checkHost("other.lan:7700"), .foreignHost)
    }

    func testOriginMustBeThePagesOwnOrConfigured() {
        let guardian = RequestGuard(keys: keys, allowedOrigins: ["https://dash.example/"])
        let key = "Bearer " + keys.search
        func decide(_ origin: String?) -> Result<WebAccess, RequestGuard.Refusal> {
            guardian.checkUpgrade(host: "127.0.0.1:7700", origin: origin, authorization: key, subprotocols: [])
        }
        XCTAssertEqual(decide(nil), .success(.searchOnly))
        XCTAssertEqual(decide("http://127.0.0.1:7700"), .success(.searchOnly))
        XCTAssertEqual(decide("https://dash.example"), .success(.searchOnly))
        for origin in ["https://127.0.0.1:7700", "http://127.0.0.1:7701", "http://localhost:7700", "null",
                       "https://evil.example", "https://dash.example.evil"] {
            XCTAssertEqual(decide(origin), .failure(.foreignOrigin), origin)
        }
    }

    func testKeysByHeaderOrSubprotocol() {
        let guardian = RequestGuard(keys: keys)
        func decide(_ authorization: String?, _ protocols: [String] = []) -> Result<WebAccess, RequestGuard.Refusal> {
            guardian.checkUpgrade(host: "localhost", origin: nil, authorization: authorization, subprotocols: protocols)
        }
        XCTAssertEqual(decide("Bearer " + keys.admin), .success(.admin))
        XCTAssertEqual(decide("bearer  " + keys.search), .success(.searchOnly))
        XCTAssertEqual(decide(nil, ["quarry.jsonrpc", "quarry.key." + keys.search]), .success(.searchOnly))
        XCTAssertEqual(decide(nil), .failure(.missingKey))
        XCTAssertEqual(decide(nil, ["quarry.jsonrpc"]), .failure(.missingKey))
        XCTAssertEqual(decide("Basic " + keys.admin), .failure(.missingKey))
        XCTAssertEqual(decide("Bearer " + keys.admin + "0"), .failure(.wrongKey))
        XCTAssertEqual(decide("Bearer " + String(keys.admin.dropLast())), .failure(.wrongKey))
        XCTAssertEqual(decide("Bearer "), .failure(.missingKey))
        XCTAssertEqual(decide(nil, ["quarry.key.nope"]), .failure(.wrongKey))
        // The Host rule comes first: a right key on a foreign Host is still refused.
        XCTAssertEqual(guardian.checkUpgrade(host: "evil.example", origin: nil, authorization: "Bearer " + keys.admin,
                                             subprotocols: []), .failure(.foreignHost))
    }

    func testStatuses() {
        XCTAssertEqual(RequestGuard.Refusal.foreignHost.status, 403)
        XCTAssertEqual(RequestGuard.Refusal.foreignOrigin.status, 403)
        XCTAssertEqual(RequestGuard.Refusal.missingKey.status, 401)
        XCTAssertEqual(RequestGuard.Refusal.wrongKey.status, 401)
    }

    func testCorsOnlyForConfiguredOrigins() {
        XCTAssertNil(RequestGuard(keys: keys).corsOrigin(for: "http://127.0.0.1:7700"))
        let guardian = RequestGuard(keys: keys, allowedOrigins: ["https://dash.example"])
        XCTAssertEqual(guardian.corsOrigin(for: "https://dash.example"), "https://dash.example")
        XCTAssertNil(guardian.corsOrigin(for: "https://other.example"))
        XCTAssertNil(guardian.corsOrigin(for: nil))
    }

    func testSubprotocolHeaderSplits() {
        XCTAssertEqual(RequestGuard.subprotocols(" quarry.jsonrpc ,quarry.key.x,, "), ["quarry.jsonrpc", "quarry.key.x"])
        XCTAssertEqual(RequestGuard.subprotocols(nil), [])
    }
}
