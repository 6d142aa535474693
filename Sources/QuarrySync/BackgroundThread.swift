#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread (or a few taking jobs from one queue), at a lower OS priority than the rest of the process,
/// that runs the work searches must not wait behind for the CPU (an index's merges and saves, writes),
/// one job at a time per thread. Work that holds a lock a
/// writer or a search waits for should take it only for an instant here (a swap): preempted by busier
/// threads, the lowered one could keep it for long, and the waiter with it.
///
/// Linux gives each thread its own nice value (`setpriority(PRIO_PROCESS, tid, n)`), but a process that
/// is not privileged cannot raise a thread's priority back once lowered. So the work is not lowered where
/// it is queued (a Dispatch queue's threads are shared with the searches' queues, and would stay lowered):
/// it is handed to this thread, lowered once when it starts, and the caller waits for it.
public final class BackgroundThread: Sendable {
    /// The nice value added to the process's: the kernel gives a thread at +10 about a tenth of the CPU of
    /// one at +0 when both want it, and all of it when the searches are idle.
    public static let defaultNiceness: Int32 = 10

    private let jobs = BoundedQueue<Job>(capacity: 1024)

    /// `threads`: how many lowered threads take the jobs; with one, jobs run in the order they came.
    public init(name: String, niceness: Int32 = BackgroundThread.defaultNiceness, threads: Int = 1) {
        let jobs = self.jobs
        for _ in 0..<max(threads, 1) {
            DetachedThread.startOrFail(name: name) {
                Self.lowerThisThread(by: niceness)
                while let job = jobs.take() { job.run() }
            }
        }
    }

    deinit { jobs.close() }

    /// Runs `body` on the thread and returns its result once it ran.
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Locked<T?>(nil)
        let job = Job { result.withLock { $0 = body() } }
        if jobs.put(job) {
            job.wait()
        }
        // Only a released thread drops jobs, and its owner no longer calls `run`; run it here then.
        guard let value = result.withLock({ $0 }) else { return body() }
        return value
    }

    /// The calling thread's nice value. On Linux `PRIO_PROCESS` with who 0 means the calling thread (the
    /// task, in the kernel's terms), not the whole process as POSIX says; Glibc's module has no `gettid`.
    public static func niceness() -> Int32 {
        #if os(Linux)
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
        return getpriority(PRIO_PROCESS, 0)
        #endif
    }

    /// True on a thread at a lower priority than the process's main thread: a `BackgroundThread`'s, or
    /// one such a thread started (Linux threads inherit their creator's nice value).
    /// One system call: searches ask it too (`Parallel.both` while counting facets).
    public static var isLowered: Bool {
        #if os(Linux)
        return niceness() > mainThreadNiceness
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// Read once: nothing in the daemon changes its main thread's nice value.
    private static let mainThreadNiceness = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
    #endif

    private static func lowerThisThread(by niceness: Int32) {
        #if os(Linux)
        // Best effort: a thread left at the process's priority only competes for the CPU as before.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(Self.niceness() + niceness, 19))
        #endif
    }

    private final class Job: @unchecked Sendable {
        // @unchecked: `finished` is read and written only under `condition`.
        private let body: @Sendable () -> Void
        private let condition = Condition()
        private var finished = false

        init(_ body: @escaping @Sendable () -> Void) { self.body = body }

        func run() {
            body()
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }

        func wait() {
            condition.withLock { condition.wait { finished } }
        }
    }
}
