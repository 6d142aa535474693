import XCTest
final class QuarryTransportTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
