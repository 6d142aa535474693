import QuarryJSON
import QuarrySync

/// The stored bodies of a large batch's records, encoded and compressed on a thread of its own a few
/// chunks ahead of the writer, which then only binds them (`IndexStore.upsert(objectID:prepared:)`).
///
/// Compressing on the writer's thread made it the critical path of large writes (perf put a fifth of the
/// daemon's samples in libzstd, all there). The dictionary is the one the store had when the batch began:
/// records of a batch that trains the index's first dictionary are compressed by the writer as before.
/// Used by the writer's thread only; releasing it stops the preparing thread at its next chunk.
final class PreparedRecordBodies {
    static let chunkSize = 256
    private let queue = BoundedQueue<[PreparedRecordBody]>(capacity: 8)
    private var chunk: [PreparedRecordBody] = []
    private var position = 0

    init(_ records: [JSONObject], dictionary: RecordDictionary?) {
        let queue = self.queue
        DetachedThread.startOrFail(name: "quarry-prepare") {
            let compressor = try? RecordCompressor()
            if (try? compressor?.use(dictionary)) == nil { return queue.close() }
            var start = 0, sizes = ChunkSizes(limit: Self.chunkSize)
            while start < records.count {
                let end = min(start + sizes.current, records.count)
                sizes.advance()
                let bodies = records[start..<end].map { (record) -> PreparedRecordBody in
                    let json = JSONWriter.encode(.object(record))
                    return compressor.map { PreparedRecordBody(json: json, compressor: $0) } ?? PreparedRecordBody(json: json)
                }
                guard queue.put(bodies) else { return }
                start = end
            }
            queue.close()
        }
    }

    deinit { queue.cancel() }

    /// The next record's body; `record` itself, left to the writer, if the preparing thread stopped short.
    func next(_ record: JSONObject) -> PreparedRecordBody {
        if position == chunk.count {
            chunk = queue.take() ?? []
            position = 0
            if chunk.isEmpty { return PreparedRecordBody(json: JSONWriter.encode(.object(record))) }
        }
        defer { position += 1 }
        return chunk[position]
    }
}
