import QuarrySync
#if canImport(Glibc)
import Glibc
#endif

/// Task ids for writes to a cluster: microseconds since 1970, made strictly
/// increasing within this daemon, so ids still grow with every write (as the
/// engine's store generations do) without a round trip to count them.
final class TaskIDs: Sendable {
    private let last = Locked<Int64>(0)

    func next() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let micros = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec / 1000)
        return last.withLock { last in
            last = max(last + 1, micros)
            return last
        }
    }

    /// Milliseconds since 1970, for createdAt and updatedAt.
    static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec / 1_000_000)
    }
}
