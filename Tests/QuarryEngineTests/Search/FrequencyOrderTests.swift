@testable import QuarryEngine
import XCTest

/// Token position codes go to terms by descending frequency, ties by ascending id (`FrequencyOrder`), the
/// same for a build (ids: the terms' places in the sorted dictionary) and a merge (ids: the merged terms),
/// including frequencies of 0 and at `UInt32.max`, where the integers it sorts meet their ends.
final class FrequencyOrderTests: XCTestCase {
    /// The order as the comparison of the definition gives it.
    private func reference(_ frequency: [UInt32], ids: [UInt32]) -> [UInt32] {
        frequency.indices
            .sorted { frequency[$0] != frequency[$1] ? frequency[$0] > frequency[$1] : ids[$0] < ids[$1] }
            .map { ids[$0] }
    }

    func testDescendingFrequencyTiesByAscendingTerm() {
        let frequency: [UInt32] = [3, 9, 3, 0, UInt32.max, 9, 1, 0]
        XCTAssertEqual(FrequencyOrder.sorted(frequency), [4, 1, 5, 0, 2, 6, 3, 7])
    }

    func testTiesGoByTheGivenIds() {
        let frequency: [UInt32] = [5, 5, 5, 2, 2]
        let ids: [UInt32] = [40, 7, 12, 3, 1]
        XCTAssertEqual(FrequencyOrder.sorted(frequency, ids: ids), [7, 12, 40, 1, 3])
    }

    func testRandomFrequenciesMatchTheComparison() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 17, 5_000] {
            let frequency = (0..<count).map { _ in UInt32.random(in: 0...20, using: &generator) }
            let ids = (0..<UInt32(count)).shuffled(using: &generator)
            XCTAssertEqual(FrequencyOrder.sorted(frequency, ids: ids), reference(frequency, ids: ids))
            XCTAssertEqual(FrequencyOrder.sorted(frequency), reference(frequency, ids: Array(0..<UInt32(count))))
        }
    }
}
