#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex around state kept elsewhere: the one lock primitive of
/// every module (`Locked` wraps a value in it).
///
/// pthread rather than `Synchronization.Mutex` because ThreadSanitizer on Linux
/// sees through pthread but reports false races through `Mutex`
/// (ARCHITECTURE.md, "Measured facts"). Hold it only for short, non-blocking work.
public final class Lock: @unchecked Sendable {
    /// Internal so `Condition` can wait on it.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
