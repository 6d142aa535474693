import Foundation
import QuarryJSON
import QuarrySync

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
    // @unchecked: the fields below `condition` are read and written only under it.
    private let condition = Condition()
    private let capacity: Int
    private var batches: [[(DocID, JSONObject)]] = []
    /// The producer handed over its last batch.
    private var ended = false
    /// The owner no longer wants the index: the build stops taking batches.
    private var abandoned = false
    private var result: SearchIndex?

    /// Starts the thread that builds an index with `settings`.
    init(settings: IndexSettings, capacity: Int = 8) {
        self.capacity = max(1, capacity)
        let thread = Thread { [self] in
            let index = SearchIndex.build(settings: settings, uniqueRecords: HandedOver(build: self))
            condition.withLock {
                result = index
                condition.broadcast()
            }
        }
        thread.name = "quarry-index-build"
        thread.start()
    }

    /// Hands over a batch of records whose docIDs no earlier batch held; waits while the handoff is full.
    func add(_ batch: [(DocID, JSONObject)]) {
        guard !batch.isEmpty else { return }
        condition.withLock {
            condition.wait { batches.count < capacity || abandoned }
            guard !abandoned else { return }
            batches.append(batch)
            condition.broadcast()
        }
    }

    /// Says no batch follows: the thread finishes the index with what it has.
    func endInput() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    /// Ends the input and waits for the index (the build cannot fail).
    func finish() -> SearchIndex {
        condition.withLock {
            ended = true
            condition.broadcast()
            condition.wait { result != nil }
            guard let index = result else { preconditionFailure("woken without the index it waited for") }
            return index
        }
    }

    /// Drops the batches not taken yet and lets the thread end without waiting for it.
    func abandon() {
        condition.withLock {
            abandoned = true
            batches.removeAll()
            condition.broadcast()
        }
    }

    /// The next batch for the build thread; nil once the producer ended or abandoned the build.
    private func take() -> [(DocID, JSONObject)]? {
        condition.withLock {
            condition.wait { !batches.isEmpty || ended || abandoned }
            guard !abandoned, !batches.isEmpty else { return nil }
            condition.broadcast()
            return batches.removeFirst()
        }
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
