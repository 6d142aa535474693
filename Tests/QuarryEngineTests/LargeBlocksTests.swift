@testable import QuarryEngine
import XCTest

/// What the allocator then does with the threshold is measured, not asserted: which blocks an arena serves
/// from its free space depends on everything the process allocated before (Benchmarks/RESULTS.md, "Large
/// blocks out of glibc's arenas").
final class LargeBlocksTests: XCTestCase {
    func testAThresholdChosenInTheEnvironmentWins() {
        XCTAssertEqual(LargeBlocks.threshold { _ in nil }, 4 << 20)
        XCTAssertNil(LargeBlocks.threshold { $0 == "MALLOC_MMAP_THRESHOLD_" ? "262144" : nil })
        XCTAssertNil(LargeBlocks.threshold { $0 == "GLIBC_TUNABLES" ? "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=65536" : nil })
        XCTAssertEqual(LargeBlocks.threshold { $0 == "GLIBC_TUNABLES" ? "glibc.malloc.arena_max=2" : nil }, 4 << 20,
                       "another tunable leaves the threshold to Quarry")
    }

    func testSmallWritesShareAHandBackAndALargeOneHasItsOwn() {
        var schedule = LargeBlocks.WriteSchedule()
        XCTAssertEqual((1...10).map { _ in schedule.isDue(afterWriting: 1_000) },
                       [false, false, false, false, true, false, false, false, false, true])
        XCTAssertEqual((1...3).map { _ in schedule.isDue(afterWriting: 5_000) }, [true, true, true])
        XCTAssertEqual([2_000, 2_000, 20_000, 256].map { schedule.isDue(afterWriting: $0) }, [false, false, true, false],
                       "what a write beyond the bound wrote does not count toward the next")
    }
}
