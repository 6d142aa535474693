import QuarryJSON
import QuarrySync

/// A segment's facet values gathered on a thread of their own while its builder tokenises.
///
/// An import's index build was the longest of its three threads, and a fifth of its time went to
/// facet values, which depend on nothing else the builder does. Records are handed over in batches
/// growing to `batchSize` (`ChunkSizes`), at most `capacity` batches ahead; `finish()` waits for the
/// last and returns the values builder. Released without `finish()`, the thread ends on its own.
final class FacetsAlongside {
    static let batchSize = 256
    private let queue: BoundedQueue<[JSONObject]>
    private let done = Eventual<BuilderBox>()
    private var pending: [JSONObject] = []
    private var batchSizes = ChunkSizes(limit: batchSize)

    init(_ builder: SegmentFacetsBuilder, capacity: Int = 8) {
        let queue = BoundedQueue<[JSONObject]>(capacity: capacity)
        self.queue = queue
        let (owned, done) = (BuilderBox(builder), self.done)
        DetachedThread.startOrFail(name: "quarry-facets") {
            while let batch = queue.take() {
                for record in batch { owned.builder.add(record: record) }
            }
            done.deliver(owned)
        }
        pending.reserveCapacity(batchSizes.current)
    }

    deinit { queue.cancel() }

    func add(record: JSONObject) {
        pending.append(record)
        if pending.count == batchSizes.current { handOver() }
    }

    /// The builder with every record added, once the thread is done.
    func finish() -> SegmentFacetsBuilder {
        handOver()
        queue.close()
        return done.wait().builder
    }

    private func handOver() {
        guard !pending.isEmpty else { return }
        queue.put(pending)
        pending = []
        batchSizes.advance()
        pending.reserveCapacity(batchSizes.current)
    }

    /// The builder, touched by the facets thread until it delivers it through `done`.
    private final class BuilderBox: @unchecked Sendable {
        var builder: SegmentFacetsBuilder
        init(_ builder: SegmentFacetsBuilder) { self.builder = builder }
    }
}
