import Dispatch
import QuarrySync

/// Runs two independent pieces of work at once: reopening a large index checks and derives
/// structures that do not depend on each other, and a user waits for all of it.
enum Parallel {
    static func both<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        let a = Locked<A?>(nil), b = Locked<B?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if i == 0 {
                let value = first()
                a.withLock { $0 = value }
            } else {
                let value = second()
                b.withLock { $0 = value }
            }
        }
        guard let first = a.withLock({ $0 }), let second = b.withLock({ $0 }) else {
            preconditionFailure("concurrentPerform returned before both iterations ran")
        }
        return (first, second)
    }
}
