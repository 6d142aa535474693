#if canImport(Glibc)
import CMalloc
import Glibc
@testable import QuarryEngine
import XCTest

final class LargeBlocksTests: XCTestCase {
    /// glibc alone, once a 16 MiB block was freed, would carve a 6 MiB one from an arena, where freeing
    /// it keeps it resident; a keystroke's scratch (1 MiB here) stays in the arenas either way.
    func testBlocksFromFourMiBGetMappingsOfTheirOwn() {
        LargeBlocks.mapOwnPages()
        // `mallinfo2` counts the whole process: a thread an earlier test left closing may map or free a
        // block between two readings, so a few tries are allowed; glibc's own threshold fails them all.
        let observed = (0..<5).map { _ in Self.observe() }
        XCTAssert(observed.contains { $0.largeMapped && $0.freedAtOnce && $0.smallInArena }, "\(observed)")
    }

    private static func observe() -> (largeMapped: Bool, freedAtOnce: Bool, smallInArena: Bool) {
        free(malloc(16 << 20))
        let mapped = mallinfo2().hblkhd
        let large = malloc(6 << 20)
        let largeMapped = mallinfo2().hblkhd - mapped >= 6 << 20
        free(large)
        let freedAtOnce = mallinfo2().hblkhd == mapped
        let small = malloc(1 << 20)
        defer { free(small) }
        return (largeMapped, freedAtOnce, mallinfo2().hblkhd == mapped)
    }
}
#endif
