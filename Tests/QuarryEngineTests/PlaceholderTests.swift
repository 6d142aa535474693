import XCTest
final class QuarryEngineTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
