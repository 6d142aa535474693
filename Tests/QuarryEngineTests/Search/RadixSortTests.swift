@testable import QuarryEngine
import XCTest

/// `RadixSort` orders as a comparison sort does, keeps the order of equal keys, and skips no byte some
/// keys differ in: keys alike in all bytes but one, in the top byte only, in none.
final class RadixSortTests: XCTestCase {
    private func assertSorts(_ keys: [UInt64], file: StaticString = #filePath, line: UInt = #line) {
        var sorted = keys, ids = (0..<keys.count).map(UInt32.init)
        RadixSort.sort(&sorted, carrying: &ids)
        let expected = keys.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
        XCTAssertEqual(sorted, expected.map(\.element), file: file, line: line)
        XCTAssertEqual(ids, expected.map { UInt32($0.offset) }, "equal keys keep their order", file: file, line: line)
        var alone = keys
        RadixSort.sort(&alone)
        XCTAssertEqual(alone, sorted, file: file, line: line)
    }

    func testOrdersAsComparisonsDo() {
        var generator = SystemRandomNumberGenerator()
        assertSorts([])
        assertSorts([42])
        assertSorts((0..<5_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) })
        assertSorts((0..<5_000).map { _ in UInt64.random(in: 0..<64, using: &generator) })
        for byte in 0..<8 {
            assertSorts((0..<500).map { _ in UInt64.random(in: 0..<4, using: &generator) << UInt64(byte * 8) | 0x0101_0101_0101_0101 })
        }
        assertSorts(Array(repeating: 7, count: 100))
        assertSorts((0..<1_000).map { _ in UInt64(~UInt32.random(in: 0..<3, using: &generator)) << 32 | UInt64.random(in: 0..<300, using: &generator) })
    }
}
