#if canImport(Glibc)
import CMalloc
import Glibc
#endif
import QuarrySync

/// Where do the large arrays of writes and merges go once freed?
///
/// glibc maps a block of its own for an allocation from 128 KiB, but after the first such block is freed
/// it raises that threshold to the freed size, up to 32 MiB: from then on the arrays that batches and
/// merges build and drop (a segment's columns, a merge's renumbering) are carved from the arenas, which
/// keep what is freed in them resident until a trim, scattered over one arena per thread. Loading 1M
/// records by batches of 5,000 held about 80 MiB of such free blocks above what the index used
/// (Benchmarks/RESULTS.md). A fixed threshold keeps blocks from 4 MiB that an arena cannot serve from
/// its free space in mappings of their own, handed back to the system as soon as they are freed. It stays
/// above what a keystroke allocates for a segment of 1M documents (its largest scratch array is 4 bytes a
/// document), so searches keep reusing arena blocks, which they fault in once, not a fresh mapping each.
public enum LargeBlocks {
    static let ownMappingFrom = 4 << 20

    /// Sets the threshold, unless the environment already chose one for glibc. Call before the process
    /// starts threads: the arenas they make meanwhile would take large blocks under the raised threshold.
    public static func mapOwnPages() {
        #if canImport(Glibc)
        let threshold = threshold { name in getenv(name).map { String(cString: $0) } }
        if let threshold { _ = mallopt(M_MMAP_THRESHOLD, Int32(threshold)) }
        #endif
    }

    /// Hands the free blocks glibc keeps resident in its arenas back to the system (`malloc_trim`): after
    /// an index was replaced, a merge, large writes.
    static func handBackFreed() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }

    /// When writes hand back what they freed: once the documents they wrote since the last time reach
    /// `documents`. A trim walks every arena and hands pages back whatever the batch, and the next builds
    /// fault them in again: after every batch of 1,000 it was 3% of a stream's samples, on the writer's
    /// thread before its reply. Small batches share one; what the arenas keep between two stays what one
    /// batch of 5,000 left them before (Benchmarks/RESULTS.md, "Writes share a trim, carry a running
    /// merge, and sort by radix").
    struct WriteSchedule: Sendable {
        let documents = 5_000
        private var written = 0

        /// Counts a write's documents; true when it is the one to hand back.
        mutating func isDue(afterWriting count: Int) -> Bool {
            written += count
            guard written >= documents else { return false }
            written = 0
            return true
        }
    }

    /// One schedule for every index: the arenas are the process's.
    private static let writeSchedule = Locked(WriteSchedule())

    /// Hands the free blocks back after a write, when `WriteSchedule` says so.
    static func handBackFreed(afterWriting documents: Int) {
        if writeSchedule.withLock({ $0.isDue(afterWriting: documents) }) { handBackFreed() }
    }

    /// The threshold to set: none when `MALLOC_MMAP_THRESHOLD_` or `GLIBC_TUNABLES` chose one (a user
    /// measuring another), else `ownMappingFrom`.
    static func threshold(environment: (String) -> String?) -> Int? {
        if environment("MALLOC_MMAP_THRESHOLD_") != nil { return nil }
        if environment("GLIBC_TUNABLES")?.contains("glibc.malloc.mmap_threshold") == true { return nil }
        return ownMappingFrom
    }
}
