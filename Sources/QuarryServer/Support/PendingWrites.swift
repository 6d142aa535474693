import QuarrySync

/// One connection's writes that have been dispatched and not yet finished,
/// so that what it sends next is ordered after them (read-your-writes):
/// a read of an index waits for the writes to that index sent before it,
/// and nothing else. Writes sent after a read never delay it.
final class PendingWrites: Sendable {
    private struct Waiter {
        /// Writes still to finish before `release` may run.
        var needs: Set<UInt64>
        let release: @Sendable () -> Void
    }

    private struct State {
        var nextSequence: UInt64 = 0
        /// Sequence → the index it writes.
        var inFlight: [UInt64: String] = [:]
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// Records a write to `index`; pass the result to `end` once it has finished.
    func begin(_ index: String) -> UInt64 {
        state.withLock { state in
            state.nextSequence += 1
            state.inFlight[state.nextSequence] = index
            return state.nextSequence
        }
    }

    func end(_ sequence: UInt64) {
        let released = state.withLock { state -> [@Sendable () -> Void] in
            state.inFlight[sequence] = nil
            guard !state.waiters.isEmpty else { return [] }
            var released: [@Sendable () -> Void] = []
            for i in state.waiters.indices { state.waiters[i].needs.remove(sequence) }
            state.waiters.removeAll { waiter in
                guard waiter.needs.isEmpty else { return false }
                released.append(waiter.release)
                return true
            }
            return released
        }
        released.forEach { $0() }
    }

    /// Runs `release` at once when no write to `indices` (nil: to any index)
    /// is in flight, else as soon as the ones in flight now have finished.
    func after(_ indices: Set<String>?, _ release: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.inFlight.isEmpty else { return true }
            let needs = Set(state.inFlight.compactMap { sequence, index in
                indices.map { $0.contains(index) } ?? true ? sequence : nil
            })
            guard !needs.isEmpty else { return true }
            state.waiters.append(Waiter(needs: needs, release: release))
            return false
        }
        if now { release() }
    }

    var isEmpty: Bool { state.withLock { $0.inFlight.isEmpty } }
}
