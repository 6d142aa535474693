import XCTest
final class QuarryFiltersTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
