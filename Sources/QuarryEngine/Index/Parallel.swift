import Dispatch
import QuarrySync

/// Runs two independent pieces of work at once: reopening a large index checks and derives
/// structures that do not depend on each other, and a user waits for all of it.
enum Parallel {
    /// Builds and merges of fewer documents run their two pieces one after the other, on the caller: a
    /// write of one record started three threads, each costing more than its piece (Benchmarks/RESULTS.md,
    /// "Single records fold in a geometric tail").
    static let apartFrom = 256

    /// `first` and `second` at once, or one after the other on the caller when `documents` is under `apartFrom`.
    static func both<A: Sendable, B: Sendable>(documents: Int, _ first: @escaping @Sendable () -> A,
                                               _ second: @escaping @Sendable () -> B) -> (A, B) {
        guard documents >= apartFrom else { return (first(), second()) }
        return both(first, second)
    }

    static func both<A: Sendable, B: Sendable>(_ first: @escaping @Sendable () -> A,
                                               _ second: @escaping @Sendable () -> B) -> (A, B) {
        if BackgroundThread.isLowered { return lowered(first, second) }
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

    /// A lowered caller (a write or a merge, see `BackgroundThread`) runs the second piece on a thread
    /// it starts, which inherits its priority. Dispatch's workers are shared with the searches and run
    /// at the process's priority: half of every lowered merge used to compete with keystrokes at full weight.
    private static func lowered<A: Sendable, B: Sendable>(_ first: @escaping @Sendable () -> A,
                                                          _ second: @escaping @Sendable () -> B) -> (A, B) {
        let b = Eventual<B>()
        do {
            try DetachedThread.start(name: "quarry-lowered") { b.deliver(second()) }
        } catch {
            return (first(), second())
        }
        let a = first()
        return (a, b.wait())
    }
}
