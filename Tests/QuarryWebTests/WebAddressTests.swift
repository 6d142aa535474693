import XCTest
@testable import QuarryWeb

/// `--http [HOST:]PORT`: a bare port is loopback; IPv6 in brackets; malformed values are refused.
final class WebAddressTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(WebAddress(parsing: "7700"), WebAddress(host: "127.0.0.1", port: 7700))
        XCTAssertEqual(WebAddress(parsing: "0.0.0.0:80"), WebAddress(host: "0.0.0.0", port: 80))
        XCTAssertEqual(WebAddress(parsing: "[::1]:7700"), WebAddress(host: "::1", port: 7700))
        XCTAssertEqual(WebAddress(parsing: "localhost:0"), WebAddress(host: "localhost", port: 0))
        for bad in ["", "x", ":7700", "host:", "host:99999", "[::1]7700", "host:-1"] {
            XCTAssertNil(WebAddress(parsing: bad), bad)
        }
    }

    func testLoopback() {
        XCTAssertTrue(WebAddress(host: "127.0.0.1", port: 1).isLoopback)
        XCTAssertTrue(WebAddress(host: "::1", port: 1).isLoopback)
        XCTAssertTrue(WebAddress(host: "localhost", port: 1).isLoopback)
        XCTAssertFalse(WebAddress(host: "0.0.0.0", port: 1).isLoopback)
        XCTAssertFalse(WebAddress(host: "192.168.1.2", port: 1).isLoopback)
        XCTAssertEqual(WebAddress(host: "::1", port: 7).description, "[::1]:7")
    }
}
