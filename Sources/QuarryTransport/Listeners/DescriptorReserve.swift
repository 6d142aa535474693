import Glibc

/// The file descriptors kept for the engine (SQLite readers, imports, index files): a client that
/// would take one is refused, so a flood of connections cannot starve the searches of the ones already
/// served. Every listener keeps the same reserve: the Unix sockets here, the HTTP listener in QuarryWeb.
public enum DescriptorReserve {
    public static func openFileLimit() -> Int32 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return Int32.max }
        return Int32(clamping: limit.rlim_cur)
    }

    /// An eighth of the limit, at least 16 and at most 256, is kept for the engine.
    public static func clientCeiling() -> Int32 {
        let limit = openFileLimit()
        guard limit != Int32.max else { return Int32.max }
        return limit - min(256, max(16, limit / 8))
    }

    /// The lowest free descriptor: descriptors are handed out lowest first, so about how many are open.
    public static func lowestFree() -> Int32 {
        let probe = dup(STDERR_FILENO)
        if probe >= 0 { close(probe) }
        return probe
    }
}
