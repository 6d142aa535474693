import XCTest
@testable import QuarryMCP

final class ProtocolVersionTests: XCTestCase {
    func testAnswersTheClientsVersionWhenSupported() {
        XCTAssertEqual(ProtocolVersion.negotiate(requested: "2025-11-25"), "2025-11-25")
        XCTAssertEqual(ProtocolVersion.negotiate(requested: "2025-06-18"), "2025-06-18")
    }

    func testAnswersTheLatestOtherwise() {
        XCTAssertEqual(ProtocolVersion.negotiate(requested: "2024-11-05"), "2025-11-25")
        XCTAssertEqual(ProtocolVersion.negotiate(requested: "2099-01-01"), "2025-11-25")
        XCTAssertEqual(ProtocolVersion.latest, "2025-11-25")
    }
}
