import XCTest
import QuarrySync

/// The chunks a stream is handed over in start small and double up to their limit, never past it.
final class ChunkSizesTests: XCTestCase {
    func testChunksDoubleFromTheFirstUpToTheLimit() {
        var sizes = ChunkSizes(limit: 256)
        var seen: [Int] = []
        for _ in 0..<6 {
            seen.append(sizes.current)
            sizes.advance()
        }
        XCTAssertEqual(seen, [32, 64, 128, 256, 256, 256])
    }

    func testALimitBelowTheFirstSizeWins() {
        var sizes = ChunkSizes(first: 32, limit: 20)
        XCTAssertEqual(sizes.current, 20)
        sizes.advance()
        XCTAssertEqual(sizes.current, 20)
        XCTAssertEqual(ChunkSizes(first: 0, limit: 0).current, 1, "a chunk holds at least one element")
    }
}
