#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `Lock` one side can wait on until the other says its guarded state changed: for a producer and a
/// consumer on two threads (pthread, as `Lock` is, so ThreadSanitizer sees through it).
public final class Condition: @unchecked Sendable {
    private let lock = Lock()
    private let changed: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
    }

    /// Runs `body` holding the lock; inside it, `wait(until:)` and `broadcast()` may be called.
    public func withLock<Result>(_ body: () -> Result) -> Result {
        lock.withLock(body)
    }

    /// Inside `withLock`: releases the lock until `ready()` holds, re-checked after each `broadcast()`.
    public func wait(until ready: () -> Bool) {
        while !ready() { pthread_cond_wait(changed, lock.mutex) }
    }

    /// Inside `withLock`: wakes every waiter to re-check its condition.
    public func broadcast() {
        pthread_cond_broadcast(changed)
    }
}
