import OrderedCollections
import QuarryJSON
import QuarryRecords
import QuarrySearchContract

extension Engine {
    /// From this many records a `saveObjects` builds its segments beside the store (`EngineImportBuild`);
    /// below, starting the build threads would cost more than they save.
    static let batchBuildThreshold = 256

    /// Adds or replaces records by objectID (generated when missing); creates
    /// the index on first write. One transaction: all records or none.
    public func saveObjects(_ objects: [JSONObject], index name: String) throws(BackendError) -> WriteReceipt {
        var prepared: [(objectID: String, record: JSONObject)] = []
        prepared.reserveCapacity(objects.count)
        for (offset, object) in objects.enumerated() {
            prepared.append(try RecordRules.prepare(.object(object), position: "record \(offset + 1)", generate: true))
        }
        let outcome = try performWrite(index: name, create: true) { (store, before) throws(BackendError) -> ((), EngineIndexChange) in
            // A large batch is indexed as an import is: each view's segment is built on a thread of its own
            // while the records are stored (the same segments and merges as `.update` makes). The builds
            // take the records before the store does, the last of each objectID, and their docIDs after.
            let kept = prepared.count >= Self.batchBuildThreshold ? Self.lastOfEachObjectID(prepared) : []
            if !kept.isEmpty, let build = try EngineImportBuild(store: store, before: before, ahead: kept.map { prepared[$0].record }) {
                let bodies = PreparedRecordBodies(prepared.map(\.record), dictionary: store.recordDictionary)
                var docIDs: [DocID] = []
                docIDs.reserveCapacity(prepared.count)
                do throws(BackendError) {
                    for (objectID, record) in prepared {
                        docIDs.append(try store.upsert(objectID: objectID, prepared: bodies.next(record)))
                    }
                } catch {
                    build.abandon()
                    throw error
                }
                build.assign(kept.map { docIDs[$0] })
                return ((), .building(build))
            }
            var upserts: OrderedDictionary<DocID, JSONObject> = [:]
            for (objectID, record) in prepared {
                let id = try store.upsert(objectID: objectID, body: JSONWriter.encode(.object(record)))
                upserts[id] = record
            }
            return ((), .update(upserts: upserts.map { ($0.key, $0.value) }, deletions: []))
        }
        return WriteReceipt(objectIDs: prepared.map(\.objectID), taskID: Int64(outcome.generation))
    }

    /// The positions of the last record of each objectID in `prepared`, in order: what the store holds
    /// once they are all written.
    static func lastOfEachObjectID(_ prepared: [(objectID: String, record: JSONObject)]) -> [Int] {
        var last: [String: Int] = [:]
        last.reserveCapacity(prepared.count)
        for (position, (objectID, _)) in prepared.enumerated() { last[objectID] = position }
        guard last.count < prepared.count else { return Array(prepared.indices) }
        return prepared.indices.filter { last[prepared[$0].objectID] == $0 }
    }

    /// Merges each object's top-level attributes into the stored record with
    /// its objectID, applying Algolia's `_operation` values (see
    /// `PartialUpdate`). A missing record is created when
    /// `createIfNotExists`, and skipped otherwise (as Algolia does).
    public func partialUpdateObjects(
        _ objects: [JSONObject], index name: String, createIfNotExists: Bool = true
    ) throws(BackendError) -> WriteReceipt {
        var prepared: [(objectID: String, record: JSONObject)] = []
        for (offset, object) in objects.enumerated() {
            prepared.append(try RecordRules.prepare(.object(object), position: "record \(offset + 1)", generate: false))
        }
        let outcome = try performWrite(index: name, create: createIfNotExists) { (store, before) throws(BackendError) in
            var upserts: OrderedDictionary<DocID, JSONObject> = [:]
            for (offset, (objectID, changes)) in prepared.enumerated() {
                let existing = try store.record(objectID: objectID)?.1
                guard existing != nil || createIfNotExists,
                      let merged = try PartialUpdate.apply(changes, to: existing, position: "record \(offset + 1)")
                else { continue }
                let id = try store.upsert(objectID: objectID, body: JSONWriter.encode(.object(merged)))
                upserts[id] = merged
            }
            return ((), .update(upserts: upserts.map { ($0.key, $0.value) }, deletions: []))
        }
        return WriteReceipt(objectIDs: prepared.map(\.objectID), taskID: Int64(outcome.generation))
    }

    /// Deletes records by objectID; unknown objectIDs are ignored.
    public func deleteObjects(_ objectIDs: [String], index name: String) throws(BackendError) -> WriteReceipt {
        let outcome = try performWrite(index: name, create: false) { (store, before) throws(BackendError) in
            var deleted: [DocID] = []
            for objectID in objectIDs {
                if let id = try store.delete(objectID: objectID) { deleted.append(id) }
            }
            return ((), .update(upserts: [], deletions: deleted))
        }
        return WriteReceipt(objectIDs: objectIDs, taskID: Int64(outcome.generation))
    }

    /// Deletes every record, keeping the index and its settings.
    public func clearObjects(index name: String) throws(BackendError) -> WriteReceipt {
        let outcome = try performWrite(index: name, create: false) { (store, _) throws(BackendError) in
            try store.deleteAll()
            return ((), .rebuild(only: nil))
        }
        return WriteReceipt(objectIDs: [], taskID: Int64(outcome.generation))
    }

    /// Changes only the given settings (null resets one to its default),
    /// creating the index when missing, and rebuilds the search index. On a
    /// replica, the keys given become its own (the rest follow its primary).
    /// A primary's `replicas` (or `slaves`) creates and removes replica views;
    /// an existing empty index named as a replica becomes one, keeping its settings.
    public func setSettings(_ json: JSONObject, index name: String) throws(BackendError) -> SettingsReceipt {
        var probe = IndexSettings()
        try probe.merge(json)  // reject malformed settings before creating anything
        let generation: UInt64
        if let primary = state.withLock({ $0.replicaOf[name] }) {
            generation = try setReplicaSettings(json, replica: name, primary: primary)
        } else if Self.declaresReplicas(json) {
            generation = try lifecycle.withLock { () throws(BackendError) -> UInt64 in
                let plan = try replicaPlan(primary: name, settings: json)
                let outcome = try performWrite(index: name, create: true, lifecycleHeld: true) { (store, _) throws(BackendError) in
                    var settings = store.settings
                    try settings.merge(json)
                    try store.replaceSettings(settings)
                    try plan.apply(to: store)
                    return ((), .rebuild(only: nil))
                }
                finish(plan, primary: name)
                return outcome.generation
            }
        } else {
            generation = try performWrite(index: name, create: true) { (store, _) throws(BackendError) in
                var settings = store.settings
                try settings.merge(json)
                try store.replaceSettings(settings)
                return ((), .rebuild(only: nil))
            }.generation
        }
        return SettingsReceipt(taskID: Int64(generation), unsupported: IndexSettings.unsupportedNames(in: json))
    }

    /// Records by objectID, as stored (nil for an unknown objectID), with only
    /// `attributesToRetrieve` when given. On a replica, its primary's records.
    public func getObjects(_ objectIDs: [String], index name: String, attributesToRetrieve: [String]? = nil)
        throws(BackendError) -> [JSONObject?]
    {
        let retrieve = attributesToRetrieve.flatMap { $0.contains("*") ? nil : $0 }
        return try resolve(name).index.readers.withSource { (records) throws(BackendError) -> [JSONObject?] in
            var found: [JSONObject?] = []
            for id in objectIDs {
                found.append(try records.record(objectID: id).map { RecordAttributes.retrieve(retrieve, from: $0, objectID: id) })
            }
            return found
        }
    }

    /// The index's settings, rendered with Algolia's current names.
    public func settings(index name: String) throws(BackendError) -> IndexSettings {
        let (index, replica) = try resolve(name)
        guard let view = index.views.view(replica) else { throw .indexNotFound(name) }
        return view.settings
    }
}
