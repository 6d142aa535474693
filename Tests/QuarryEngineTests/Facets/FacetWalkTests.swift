@testable import QuarryEngine
import XCTest

/// Counting by walking the matches gives each value's count, whether it walks in one piece or, for
/// many matches, in two halves on two threads; for multi-valued columns, single-valued ones (two-byte
/// ids) and single-valued ones with too many values for them.
final class FacetWalkTests: XCTestCase {
    func testSplitWalksCountWhatAScanCounts() {
        var random = SystemRandomNumberGenerator()
        let n = FacetCounter.parallelWalk * 2 + 77
        for (values, perDocument) in [(5_000, 0...3), (300, 0...1), (70_000, 1...1)] {
            var starts: [UInt32] = [0], ids: [UInt32] = []
            for _ in 0..<n {
                for _ in 0..<Int.random(in: perDocument, using: &random) { ids.append(UInt32.random(in: 0..<UInt32(values), using: &random)) }
                starts.append(UInt32(ids.count))
            }
            // A multi-valued column keeps each document's values distinct.
            if perDocument.upperBound > 1 {
                var deduplicated: [UInt32] = [], bounds: [UInt32] = [0]
                for d in 0..<n {
                    deduplicated += Set(ids[Int(starts[d])..<Int(starts[d + 1])]).sorted()
                    bounds.append(UInt32(deduplicated.count))
                }
                (ids, starts) = (deduplicated, bounds)
            }
            let column = FacetColumn(name: "f", values: (0..<values).map { "v\($0)" }, numericFlags: [UInt8](repeating: 0, count: values),
                                     starts: StoredArray(starts), ids: StoredArray(ids))
            var universe = [UInt64](repeating: 0, count: (n + 63) >> 6)
            var expected = [UInt32](repeating: 0, count: values), matches = 0
            for d in 0..<n where Int.random(in: 0..<3, using: &random) > 0 {
                universe[d >> 6] |= 1 << UInt64(d & 63)
                matches += 1
                for i in Int(starts[d])..<Int(starts[d + 1]) { expected[Int(ids[i])] += 1 }
            }
            XCTAssertGreaterThanOrEqual(matches, FacetCounter.parallelWalk)
            XCTAssertEqual(FacetCounter.walk(column, universe, documents: matches), expected, "\(values) values")
            XCTAssertEqual(FacetCounter.walk(column, universe, documents: 0), expected, "\(values) values, one piece")
        }
    }
}
