import QuarryJSON
import QuarrySync
import QuarrySearchContract

/// One search index built on a thread of its own from batches of records
/// that another thread hands over, so that an import stores records while
/// they are tokenised and laid out. A write's batch is given whole at the
/// start instead, before the store gave its records their docIDs: they are
/// tokenised while the writer stores them, and laid out once `assign(_:)`
/// gives the docIDs.
///
/// The handoff holds at most `capacity` batches: a producer faster than the
/// build waits rather than piling records up in memory. The owner calls
/// exactly one of `finish()` (waits for the index; `endInput()` may come
/// first) or `abandon()` (returns at once; the thread drops what it built and
/// ends on its own).
final class BackgroundIndexBuild: Sendable {
    private let batches: BoundedQueue<[(DocID, JSONObject)]>
    private let result = Eventual<SearchIndex>()
    /// The docIDs of records given at the start; nil when the build is abandoned.
    private let docIDs = Eventual<[DocID]?>()

    /// Starts the thread that builds an index with `settings`, a large one's largest arrays in files of
    /// `spillDirectory` (`SearchIndex.build`).
    init(settings: IndexSettings, capacity: Int = 8, spillDirectory: String? = nil) {
        let batches = BoundedQueue<[(DocID, JSONObject)]>(capacity: capacity)
        self.batches = batches
        let result = self.result
        DetachedThread.startOrFail(name: "quarry-index") {
            result.deliver(SearchIndex.build(settings: settings, uniqueRecords: HandedOver(batches: batches),
                                             spillDirectory: spillDirectory))
        }
    }

    /// Starts the thread that builds an index of `records`, whose docIDs `assign(_:)` gives once they are
    /// stored; it tokenises them meanwhile.
    init(settings: IndexSettings, records: [JSONObject], spillDirectory: String? = nil) {
        batches = BoundedQueue(capacity: 1)
        let (result, docIDs) = (self.result, self.docIDs)
        DetachedThread.startOrFail(name: "quarry-index") {
            guard let index = SearchIndex.build(settings: settings, records: records, docIDs: { docIDs.wait() },
                                                spillDirectory: spillDirectory)
            else { return }
            result.deliver(index)
        }
    }

    /// A build of records given at the start that its owner let go of without `assign(_:)` or `abandon()`
    /// must not keep its thread waiting for their docIDs.
    deinit {
        if !docIDs.isDelivered { docIDs.deliver(nil) }
    }

    /// The docIDs of the records given at the start, one each, in their order, all distinct.
    func assign(_ ids: [DocID]) {
        docIDs.deliver(ids)
    }

    /// Hands over a batch of records whose docIDs no earlier batch held; waits while the handoff is full.
    func add(_ batch: [(DocID, JSONObject)]) {
        guard !batch.isEmpty else { return }
        batches.put(batch)
    }

    /// Says no batch follows: the thread finishes the index with what it has.
    func endInput() {
        batches.close()
    }

    /// Ends the input and waits for the index (the build cannot fail); for records given at the start,
    /// once `assign(_:)` gave their docIDs.
    func finish() -> SearchIndex {
        batches.close()
        return result.wait()
    }

    /// Drops the batches not taken yet and lets the thread end without waiting for it.
    func abandon() {
        batches.cancel()
        if !docIDs.isDelivered { docIDs.deliver(nil) }
    }

    /// The records of the handed-over batches, in order, as the build thread pulls them.
    private struct HandedOver: Sequence, IteratorProtocol {
        let batches: BoundedQueue<[(DocID, JSONObject)]>
        var batch: [(DocID, JSONObject)] = []
        var position = 0

        mutating func next() -> (DocID, JSONObject)? {
            if position == batch.count {
                guard let next = batches.take() else { return nil }
                batch = next
                position = 0
            }
            defer { position += 1 }
            return batch[position]
        }
    }
}
