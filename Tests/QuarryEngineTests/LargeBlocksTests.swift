#if canImport(Glibc)
import CMalloc
import Glibc
@testable import QuarryEngine
import XCTest

final class LargeBlocksTests: XCTestCase {
    /// glibc alone, once a 16 MiB block was freed, would carve a 6 MiB one from an arena, where freeing
    /// it keeps it resident; a keystroke's scratch (1 MiB here) stays in the arenas either way.
    func testBlocksFromFourMiBGetMappingsOfTheirOwn() throws {
        LargeBlocks.mapOwnPages()
        free(malloc(16 << 20))
        let mapped = mallinfo2().hblkhd
        let large = try XCTUnwrap(malloc(6 << 20))
        XCTAssertGreaterThanOrEqual(mallinfo2().hblkhd - mapped, 6 << 20, "a block above the threshold is mapped apart")
        free(large)
        XCTAssertEqual(mallinfo2().hblkhd, mapped, "freeing it hands the mapping back")
        let small = try XCTUnwrap(malloc(1 << 20))
        defer { free(small) }
        XCTAssertEqual(mallinfo2().hblkhd, mapped, "a block below the threshold comes from an arena")
    }
}
#endif
