import XCTest
final class QuarryProtocolTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
