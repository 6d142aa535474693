@testable import QuarryEngine
import XCTest

/// `DocumentLevels` packs three bitsets into two bits per document:
/// 1. a document's level is 3 in the inner set, 2 in the middle one, 1 in the outer one only, else 0;
/// 2. the members it lists are the outer set's, ascending, for counts that are not a multiple of 64;
/// 3. a document past the end is level 0.
final class DocumentLevelsTests: XCTestCase {
    func testLevelsCountTheNestedSetsHoldingEachDocument() {
        var random = SystemRandomNumberGenerator()
        for n in [1, 31, 32, 63, 64, 65, 1_000, 4_099] {
            let words = (n + 63) >> 6
            var outer = [UInt64](repeating: 0, count: words), middle = outer, inner = outer
            var expected = [Int](repeating: 0, count: n)
            for d in 0..<n {
                let level = Int.random(in: 0...3, using: &random)
                expected[d] = level
                let bit: UInt64 = 1 << UInt64(d & 63)
                if level >= 1 { outer[d >> 6] |= bit }
                if level >= 2 { middle[d >> 6] |= bit }
                if level == 3 { inner[d >> 6] |= bit }
            }
            let levels = DocumentLevels(outer: outer, middle: middle, inner: inner)
            XCTAssertEqual(levels.words.count, DocumentLevels.wordCount(documents: n))
            XCTAssertEqual((0..<n).map { levels[$0] }, expected, "n = \(n)")
            var members: [Int] = []
            levels.forEachMember { members.append($0) }
            XCTAssertEqual(members, (0..<n).filter { expected[$0] > 0 }, "n = \(n)")
            XCTAssertEqual(levels[levels.words.count * 32], 0)
        }
    }

    func testTheInnerSetWinsWhenTheSetsAreNotNested() {
        let levels = DocumentLevels(outer: [0b0001], middle: [0b0010], inner: [0b0100])
        XCTAssertEqual((0..<4).map { levels[$0] }, [1, 2, 3, 0])
    }
}
