import Dispatch
import QuarrySync

/// Where an engine's background work runs (the merges, saves and record compaction of `EngineIndex`):
/// ordered one job at a time by a Dispatch queue, as before, but each job executed on one thread at a
/// lower OS priority (`BackgroundThread`), so that searches get the CPU first when both want it. The
/// queue's own thread only waits meanwhile. `sync` (closing) runs on the caller, at its priority.
struct EnginePersistQueue: Sendable {
    let queue: DispatchQueue
    let thread: BackgroundThread

    /// Runs `job` on the lowered thread, `seconds` from now, after the jobs queued before it.
    func asyncAfter(_ seconds: Double, _ job: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds) { [thread] in thread.run(job) }
    }

    /// Runs `job` on the lowered thread after the jobs queued before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        queue.async { [thread] in thread.run(job) }
    }

    /// Runs `job` after the jobs queued before it, on the queue's own thread, not lowered: for work done
    /// holding an index's write lock (a record compaction step), which a lowered thread would hold for as
    /// long as searches keep the CPU, and writes would wait behind it.
    func asyncUnlowered(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }

    /// Runs `body` on the calling thread once the jobs queued before it ran.
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }
}
