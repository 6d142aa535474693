import QuarrySync
import QuarrySearchContract

/// Reads an import file's items on a thread of its own, a few batches ahead of the caller.
///
/// An import's storing thread used to parse each record, store it and hand it to the index build on a
/// second thread; on two cores each was busy about 85% of the time, waiting on the other. Parsing
/// here lets the cores fill. Items, the error that stopped the reader and the progress offset come
/// out in the file's order, and the handoff holds at most `capacity` batches. Releasing this reader
/// stops the thread at its next batch, so an import that fails or is cancelled reads no further.
///
/// `preparer`, when given, makes (on the reading thread) a function that prepares each item there for
/// whoever stores it (the engine compresses the record's text): its result is `prepared` once `next()`
/// returned that item.
package final class ReadAheadImportReader: ImportReader {
    package typealias Preparer = @Sendable () -> (ImportItem) -> (any Sendable)?

    package let totalBytes: Int64
    package private(set) var bytesRead: Int64 = 0
    private let queue: BoundedQueue<Batch>
    private var batch = Batch()
    private var position = 0
    /// What `preparer` made of the item `next()` returned last.
    package private(set) var prepared: (any Sendable)?

    package init(_ reader: any ImportReader, batchSize: Int = 256, capacity: Int = 8, preparer: Preparer? = nil) {
        totalBytes = reader.totalBytes
        let queue = BoundedQueue<Batch>(capacity: capacity)
        self.queue = queue
        let source = Source(reader: reader)
        DetachedThread.startOrFail(name: "quarry-read") {
            let prepare = preparer?()
            while true {
                var batch = source.read(max(1, batchSize))
                if let prepare { batch.prepared = batch.items.map(prepare) }
                if !queue.put(batch) || batch.isLast { return }
            }
        }
    }

    deinit { queue.cancel() }

    package func next() throws(BackendError) -> ImportItem? {
        while position == batch.items.count {
            if batch.isLast {
                bytesRead = batch.endOffset
                if let failure = batch.failure { throw failure }
                return nil
            }
            // The thread's last batch says so, and only this reader's release cancels the queue.
            guard let next = queue.take() else { return nil }
            batch = next
            position = 0
        }
        defer { position += 1 }
        bytesRead = batch.offsets[position]
        prepared = position < batch.prepared.count ? batch.prepared[position] : nil
        return batch.items[position]
    }

    /// Items in file order, each with the offset read once it was, then how reading stopped, if it
    /// did, and the offset then (past a closing bracket, say).
    private struct Batch: Sendable {
        var items: [ImportItem] = []
        var offsets: [Int64] = []
        var prepared: [(any Sendable)?] = []
        var failure: BackendError?
        var isLast = false
        var endOffset: Int64 = 0
    }

    /// The wrapped reader, used by the reading thread only once `init` handed it over.
    private final class Source: @unchecked Sendable {
        private var reader: any ImportReader

        init(reader: any ImportReader) { self.reader = reader }

        func read(_ count: Int) -> Batch {
            var batch = Batch()
            batch.items.reserveCapacity(count)
            batch.offsets.reserveCapacity(count)
            do throws(BackendError) {
                while batch.items.count < count {
                    guard let item = try reader.next() else {
                        batch.isLast = true
                        break
                    }
                    batch.items.append(item)
                    batch.offsets.append(reader.bytesRead)
                }
            } catch {
                batch.failure = error
                batch.isLast = true
            }
            batch.endOffset = reader.bytesRead
            return batch
        }
    }
}
