#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import QuarryJSON

/// One search index built on a thread of its own from batches of records
/// that another thread hands over, so that an import reads, parses and
/// stores on one core while the index is tokenised and laid out on another.
///
/// The handoff holds at most `capacity` batches: a producer faster than the
/// build waits rather than piling records up in memory. The owner calls
/// exactly one of `finish()` (waits for the index; `endInput()` may come
/// first) or `abandon()` (returns at once; the thread drops what it built and
/// ends on its own).
final class BackgroundIndexBuild: @unchecked Sendable {
    // @unchecked: the fields below `changed` are read and written only under `mutex`,
    // and `changed` is only waited on and signalled with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private let capacity: Int
    private var batches: [[(DocID, JSONObject)]] = []
    /// The producer handed over its last batch.
    private var ended = false
    /// The owner no longer wants the index: the build stops taking batches.
    private var abandoned = false
    private var result: SearchIndex?

    /// Starts the thread that builds an index with `settings`.
    init(settings: IndexSettings, capacity: Int = 8) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
        self.capacity = max(1, capacity)
        let thread = Thread { [self] in
            let index = SearchIndex.build(settings: settings, uniqueRecords: HandedOver(build: self))
            locked {
                result = index
                pthread_cond_broadcast(changed)
            }
        }
        thread.name = "quarry-index-build"
        thread.start()
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Hands over a batch of records whose docIDs no earlier batch held; waits while the handoff is full.
    func add(_ batch: [(DocID, JSONObject)]) {
        guard !batch.isEmpty else { return }
        locked {
            while batches.count >= capacity && !abandoned { pthread_cond_wait(changed, mutex) }
            guard !abandoned else { return }
            batches.append(batch)
            pthread_cond_broadcast(changed)
        }
    }

    /// Says no batch follows: the thread finishes the index with what it has.
    func endInput() {
        locked {
            ended = true
            pthread_cond_broadcast(changed)
        }
    }

    /// Ends the input and waits for the index (the build cannot fail).
    func finish() -> SearchIndex {
        locked {
            ended = true
            pthread_cond_broadcast(changed)
            while true {
                if let result { return result }
                pthread_cond_wait(changed, mutex)
            }
        }
    }

    /// Drops the batches not taken yet and lets the thread end without waiting for it.
    func abandon() {
        locked {
            abandoned = true
            batches.removeAll()
            pthread_cond_broadcast(changed)
        }
    }

    /// The next batch for the build thread; nil once the producer ended or abandoned the build.
    private func take() -> [(DocID, JSONObject)]? {
        locked {
            while batches.isEmpty && !ended && !abandoned { pthread_cond_wait(changed, mutex) }
            guard !abandoned, !batches.isEmpty else { return nil }
            pthread_cond_broadcast(changed)
            return batches.removeFirst()
        }
    }

    /// Runs `body` under the mutex. Each change the other side may wait for broadcasts `changed` before
    /// `body` waits or returns: a wait releases the mutex, so nothing is missed.
    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// The records of the handed-over batches, in order, as the build thread pulls them.
    private struct HandedOver: Sequence, IteratorProtocol {
        let build: BackgroundIndexBuild
        var batch: [(DocID, JSONObject)] = []
        var position = 0

        init(build: BackgroundIndexBuild) {
            self.build = build
        }

        mutating func next() -> (DocID, JSONObject)? {
            if position == batch.count {
                guard let next = build.take() else { return nil }
                batch = next
                position = 0
            }
            defer { position += 1 }
            return batch[position]
        }
    }
}
