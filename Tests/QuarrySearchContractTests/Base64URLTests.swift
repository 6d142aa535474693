@testable import QuarrySearchContract
import XCTest

/// Browse cursors' base64url: every length round-trips without `=`, `+` or `/`; malformed text is refused.
final class Base64URLTests: XCTestCase {
    func testBase64URLRoundTripsEveryLength() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 251) }
            let text = Base64URL.encode(bytes)
            XCTAssertFalse(text.contains("=") || text.contains("+") || text.contains("/"), text)
            XCTAssertEqual(Base64URL.decode(text), bytes, "length \(length)")
        }
        XCTAssertNil(Base64URL.decode("A"), "a lone sixth of a byte")
        XCTAssertNil(Base64URL.decode("AB=="), "no padding")
        XCTAssertNil(Base64URL.decode("é"))
    }
}
