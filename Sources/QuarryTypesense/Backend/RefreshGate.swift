import Dispatch
import QuarrySync

/// Lets background refreshes (the catalogue's, kept counts') start only while no search of this
/// daemon waits on the cluster.
///
/// A copy past its age is noticed by a keystroke's search, and its refresh used to start at once,
/// beside that search: Typesense and this daemon then shared their cores between the keystroke and a
/// whole-collection count (Benchmarks/RESULTS.md, "Refreshes and the exact search kept off the first
/// answer"). A refresh now waits until the searches in flight are answered, or `maxWait` at most, so
/// that searches back to back cannot hold it off.
final class RefreshGate: Sendable {
    private struct State {
        var reading = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
    }

    private let state = Locked(State())
    private let maxWait: DispatchTimeInterval

    init(maxWait: DispatchTimeInterval = .milliseconds(100)) {
        self.maxWait = maxWait
    }

    /// Runs `body`, a search that waits on the cluster, holding refreshes back meanwhile.
    func reading<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        state.withLock { $0.reading += 1 }
        defer {
            let released = state.withLock { state -> [@Sendable () -> Void] in
                state.reading -= 1
                guard state.reading == 0 else { return [] }
                defer { state.waiting.removeAll() }
                return state.waiting.sorted { $0.key < $1.key }.map(\.value)
            }
            for refresh in released { refresh() }
        }
        return try body()
    }

    /// Starts `refresh` (which hands its work to its own queue) now if no search is in flight, else
    /// once none is, or after `maxWait`.
    func whenIdle(_ refresh: @escaping @Sendable () -> Void) {
        let id = state.withLock { state -> Int? in
            guard state.reading > 0 else { return nil }
            state.nextID += 1
            state.waiting[state.nextID] = refresh
            return state.nextID
        }
        guard let id else { return refresh() }
        DispatchQueue.global().asyncAfter(deadline: .now() + maxWait) { [self] in
            state.withLock { $0.waiting.removeValue(forKey: id) }?()
        }
    }
}
