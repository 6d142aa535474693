import OrderedCollections
import QuarryJSON

extension Engine {
    /// Adds or replaces records by objectID (generated when missing); creates
    /// the index on first write. One transaction: all records or none.
    public func saveObjects(_ objects: [JSONObject], index name: String) throws(EngineError) -> WriteReceipt {
        var prepared: [(objectID: String, record: JSONObject)] = []
        prepared.reserveCapacity(objects.count)
        for (offset, object) in objects.enumerated() {
            prepared.append(try EngineRecordRules.prepare(.object(object), position: "record \(offset + 1)", generate: true))
        }
        let outcome = try performWrite(index: name, create: true) { (store, before) throws(EngineError) in
            var upserts: OrderedDictionary<DocID, JSONObject> = [:]
            for (objectID, record) in prepared {
                let id = try store.upsert(objectID: objectID, body: JSONWriter.encode(.object(record)))
                upserts[id] = record
            }
            let upserted = upserts.map { ($0.key, $0.value) }
            return ((), before.index.updating(upserts: upserted, deletions: []))
        }
        return WriteReceipt(objectIDs: prepared.map(\.objectID), taskID: Int64(outcome.generation))
    }

    /// Merges each object's top-level attributes into the stored record with
    /// its objectID, applying Algolia's `_operation` values (see
    /// `EnginePartialUpdate`). A missing record is created when
    /// `createIfNotExists`, and skipped otherwise (as Algolia does).
    public func partialUpdateObjects(
        _ objects: [JSONObject], index name: String, createIfNotExists: Bool = true
    ) throws(EngineError) -> WriteReceipt {
        var prepared: [(objectID: String, record: JSONObject)] = []
        for (offset, object) in objects.enumerated() {
            prepared.append(try EngineRecordRules.prepare(.object(object), position: "record \(offset + 1)", generate: false))
        }
        let outcome = try performWrite(index: name, create: createIfNotExists) { (store, before) throws(EngineError) in
            var upserts: OrderedDictionary<DocID, JSONObject> = [:]
            for (offset, (objectID, changes)) in prepared.enumerated() {
                let existing = try store.record(objectID: objectID)?.1
                guard existing != nil || createIfNotExists,
                      let merged = try EnginePartialUpdate.apply(changes, to: existing, position: "record \(offset + 1)")
                else { continue }
                let id = try store.upsert(objectID: objectID, body: JSONWriter.encode(.object(merged)))
                upserts[id] = merged
            }
            let upserted = upserts.map { ($0.key, $0.value) }
            return ((), before.index.updating(upserts: upserted, deletions: []))
        }
        return WriteReceipt(objectIDs: prepared.map(\.objectID), taskID: Int64(outcome.generation))
    }

    /// Deletes records by objectID; unknown objectIDs are ignored.
    public func deleteObjects(_ objectIDs: [String], index name: String) throws(EngineError) -> WriteReceipt {
        let outcome = try performWrite(index: name, create: false) { (store, before) throws(EngineError) in
            var deleted: [DocID] = []
            for objectID in objectIDs {
                if let id = try store.delete(objectID: objectID) { deleted.append(id) }
            }
            return ((), before.index.updating(upserts: [], deletions: deleted))
        }
        return WriteReceipt(objectIDs: objectIDs, taskID: Int64(outcome.generation))
    }

    /// Deletes every record, keeping the index and its settings.
    public func clearObjects(index name: String) throws(EngineError) -> WriteReceipt {
        let outcome = try performWrite(index: name, create: false) { (store, before) throws(EngineError) in
            try store.deleteAll()
            return ((), SearchIndex.build(settings: before.settings, records: EmptyCollection()))
        }
        return WriteReceipt(objectIDs: [], taskID: Int64(outcome.generation))
    }

    /// Changes only the given settings (null resets one to its default),
    /// creating the index when missing, and rebuilds the search index.
    public func setSettings(_ json: JSONObject, index name: String) throws(EngineError) -> SettingsReceipt {
        var probe = IndexSettings()
        try probe.merge(json)  // reject malformed settings before creating anything
        let outcome = try performWrite(index: name, create: true) { (store, _) throws(EngineError) in
            var settings = store.settings
            try settings.merge(json)
            try store.replaceSettings(settings)
            return ((), try EngineDerivedFile.build(store: store, settings: settings))
        }
        return SettingsReceipt(taskID: Int64(outcome.generation), unsupported: IndexSettings.unsupportedNames(in: json))
    }

    /// The index's settings, rendered with Algolia's current names.
    public func settings(index name: String) throws(EngineError) -> JSONObject {
        try existing(name).snapshot.settings.json()
    }
}
