import QuarryJSON
import QuarrySearchContract

extension Engine {
    /// Replaces `destination` (created when missing) with a copy of the primary `name`: its
    /// records when `records`, its settings when `settings` (the destination keeps its own
    /// replicas). One transaction on the destination, so a search sees it before or after,
    /// and a crash leaves one or the other. With `move`, the source is then deleted; a crash
    /// between the two leaves both, as after a copy.
    public func copyIndex(
        _ name: String, to destination: String, records: Bool = true, settings: Bool = true, move: Bool = false
    ) throws(BackendError) -> WriteReceipt {
        guard destination != name else {
            throw .invalidParameter(name: "destination", expected: "an index other than the source '\(name)'")
        }
        let source = try existing(name)
        guard let (sourceSettings, sourceRecords) = try source.reading({ (store) throws(BackendError) in
            (store.settings, records ? try Self.bodies(of: store) : nil)
        }) else { throw .indexNotFound(name) }
        let outcome = try performWrite(index: destination, create: true) { (store, _) throws(BackendError) in
            if settings {
                var copied = sourceSettings
                copied.replicas = store.settings.replicas
                try store.replaceSettings(copied)
            }
            if let sourceRecords {
                try store.deleteAll()
                for (objectID, body) in sourceRecords { _ = try store.upsert(objectID: objectID, body: body) }
            }
            return ((), .rebuild(only: nil))
        }
        if move { try deleteIndex(name) }
        return WriteReceipt(objectIDs: [], taskID: Int64(outcome.generation))
    }

    /// Every record's objectID and stored JSON, copied as stored.
    private static func bodies(of store: IndexStore) throws(BackendError) -> [(String, [UInt8])] {
        let stored = try store.allRecords()
        var bodies: [(String, [UInt8])] = []
        for (_, record) in stored {
            guard let objectID = record["objectID"]?.stringValue else { continue }
            bodies.append((objectID, JSONWriter.encode(.object(record))))
        }
        if let failure = stored.failure { throw failure }
        return bodies
    }
}
