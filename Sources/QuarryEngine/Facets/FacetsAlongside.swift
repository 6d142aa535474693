import Foundation
import QuarryJSON
import QuarrySync

/// A segment's facet values gathered on a thread of their own while its builder tokenises.
///
/// An import's index build was the longest of its three threads, and a fifth of its time went to
/// facet values, which depend on nothing else the builder does. Records are handed over in batches
/// of `batchSize`, at most `capacity` batches ahead; `finish()` waits for the last and returns the
/// values builder. Released without `finish()`, the thread ends on its own.
final class FacetsAlongside {
    static let batchSize = 256
    private let handoff: Handoff
    private var pending: [JSONObject] = []

    init(_ builder: SegmentFacetsBuilder, capacity: Int = 8) {
        let handoff = Handoff(capacity: capacity)
        self.handoff = handoff
        let owned = BuilderBox(builder)
        let thread = Thread {
            while let batch = handoff.take() {
                for record in batch { owned.builder.add(record: record) }
            }
            handoff.finished(owned)
        }
        thread.name = "quarry-facets-build"
        thread.start()
        pending.reserveCapacity(Self.batchSize)
    }

    deinit { handoff.end() }

    func add(record: JSONObject) {
        pending.append(record)
        if pending.count == Self.batchSize { handOver() }
    }

    /// The builder with every record added, once the thread is done.
    func finish() -> SegmentFacetsBuilder {
        handOver()
        handoff.end()
        return handoff.result().builder
    }

    private func handOver() {
        guard !pending.isEmpty else { return }
        handoff.put(pending)
        pending = []
        pending.reserveCapacity(Self.batchSize)
    }

    /// The builder, touched by the facets thread until it hands it back through `finished`.
    private final class BuilderBox: @unchecked Sendable {
        var builder: SegmentFacetsBuilder
        init(_ builder: SegmentFacetsBuilder) { self.builder = builder }
    }

    private final class Handoff: @unchecked Sendable {
        // @unchecked: the fields below `condition` are read and written only under it.
        private let condition = Condition()
        private let capacity: Int
        private var batches: [[JSONObject]] = []
        private var ended = false
        private var done: BuilderBox?

        init(capacity: Int) { self.capacity = max(1, capacity) }

        func put(_ batch: [JSONObject]) {
            condition.withLock {
                condition.wait { batches.count < capacity }
                batches.append(batch)
                condition.broadcast()
            }
        }

        func take() -> [JSONObject]? {
            condition.withLock {
                condition.wait { !batches.isEmpty || ended }
                guard !batches.isEmpty else { return nil }
                condition.broadcast()
                return batches.removeFirst()
            }
        }

        func end() {
            condition.withLock {
                ended = true
                condition.broadcast()
            }
        }

        func finished(_ builder: BuilderBox) {
            condition.withLock {
                done = builder
                condition.broadcast()
            }
        }

        func result() -> BuilderBox {
            condition.withLock {
                condition.wait { done != nil }
                guard let done else { preconditionFailure("woken without the facets it waited for") }
                return done
            }
        }
    }
}
