import QuarryJSON
import QuarryRecords
import QuarrySearchContract

/// Writes. Each returns once the cluster's leader has applied it; the cluster
/// client then reads from the leader for a while, so this daemon's next search
/// sees the write (followers apply it about 500 ms later).
extension TypesenseBackend {
    public func saveObjects(_ objects: [JSONObject], index: String) throws(BackendError) -> WriteReceipt {
        var prepared: [(objectID: String, record: JSONObject)] = []
        for (offset, object) in objects.enumerated() {
            prepared.append(try RecordRules.prepare(.object(object), position: "record \(offset + 1)", generate: true))
        }
        try ready()
        try onCurrentCollection(index, create: true) { entry throws(BackendError) in
            try upsert(prepared.map(\.record), into: entry.collection, settings: entry.parsedSettings)
        }
        return WriteReceipt(objectIDs: prepared.map(\.objectID), taskID: taskIDs.next())
    }

    public func partialUpdateObjects(_ objects: [JSONObject], index: String, createIfNotExists: Bool) throws(BackendError) -> WriteReceipt {
        var prepared: [(objectID: String, record: JSONObject)] = []
        for (offset, object) in objects.enumerated() {
            prepared.append(try RecordRules.prepare(.object(object), position: "record \(offset + 1)", generate: false))
        }
        try ready()
        try onCurrentCollection(index, create: createIfNotExists) { entry throws(BackendError) in
            let existing = try getObjects(prepared.map(\.objectID), index: entry.name, attributesToRetrieve: nil)
            var merged: [JSONObject] = []
            for (offset, ((_, changes), current)) in zip(prepared, existing).enumerated() {
                guard current != nil || createIfNotExists,
                      let record = try PartialUpdate.apply(changes, to: current, position: "record \(offset + 1)")
                else { continue }
                merged.append(record)
            }
            try upsert(merged, into: entry.collection, settings: entry.parsedSettings)
        }
        return WriteReceipt(objectIDs: prepared.map(\.objectID), taskID: taskIDs.next())
    }

    public func deleteObjects(_ objectIDs: [String], index: String) throws(BackendError) -> WriteReceipt {
        try ready()
        try onCurrentCollection(index, create: false) { entry throws(BackendError) in
            for objectID in objectIDs {
                _ = try documentCall(entry.collection) { () throws(TypesenseError) in
                    try api.deleteDocument(objectID, collection: entry.collection)
                }
            }
        }
        return WriteReceipt(objectIDs: objectIDs, taskID: taskIDs.next())
    }

    /// A new empty collection under the alias: one step for any number of records.
    public func clearObjects(index: String) throws(BackendError) -> WriteReceipt {
        try ready()
        let entry = try writable(index, create: false)
        try rebuild(entry, settings: entry.settings) { _ in }
        return WriteReceipt(objectIDs: [], taskID: taskIDs.next())
    }

    public func setSettings(_ json: JSONObject, index: String) throws(BackendError) -> SettingsReceipt {
        var probe = IndexSettings()
        try probe.merge(json)  // malformed settings are refused before anything is created
        try ready()
        let snapshot = try catalog.snapshot()
        if let primary = snapshot.replicaOf[index], var entry = snapshot.entries[primary] {
            if let key = ["replicas", "slaves"].first(where: { json[$0] != nil }) {
                throw .invalidSetting(name: key, expected: "absent: '\(index)' is a replica of '\(primary)'")
            }
            var own = entry.replicaSettings[index] ?? [:]
            for (key, value) in json {
                let current = IndexSettings.legacyNames[key] ?? key
                if IndexSettings.readOnlyNames.contains(current) { continue }
                own[current] = value.isNull ? nil : value
            }
            entry.replicaSettings[index] = own
            entry.updatedAt = TaskIDs.nowMilliseconds()
            try catalog.save(entry)
            return SettingsReceipt(taskID: taskIDs.next(), unsupported: IndexSettings.unsupportedNames(in: json))
        }
        let entry = try writable(index, create: true)
        var settings = entry.parsedSettings
        try settings.merge(json)
        try checkReplicas(of: index, settings: settings, snapshot: snapshot)
        if Self.derivationChanged(from: entry.parsedSettings, to: settings) {
            try rebuild(entry, settings: settings.json()) { sink throws(BackendError) in
                try copyRecords(of: entry, into: sink)
            }
        } else {
            var updated = entry
            updated.settings = settings.json()
            updated.updatedAt = TaskIDs.nowMilliseconds()
            try catalog.save(updated)
        }
        return SettingsReceipt(taskID: taskIDs.next(), unsupported: IndexSettings.unsupportedNames(in: json))
    }

    public func deleteIndex(_ name: String) throws(BackendError) -> Bool {
        try ready()
        let snapshot = try catalog.snapshot()
        if let primary = snapshot.replicaOf[name], var entry = snapshot.entries[primary] {
            var settings = entry.parsedSettings
            settings.replicas.removeAll { $0.name == name }
            entry.settings = settings.json()
            try catalog.save(entry)
            return true
        }
        guard let entry = snapshot.entries[name] else { return false }
        try catalog.remove(name)
        _ = try call { () throws(TypesenseError) in try api.deleteAlias(FieldNames.alias(ofIndex: name)) }
        _ = try call { () throws(TypesenseError) in try api.deleteCollection(entry.collection) }
        return true
    }

    // MARK: Helpers

    /// Runs a document write on the index's physical collection, not its alias: Typesense 0.24.1
    /// drops writes addressed to an alias when a restarted node rebuilds from its Raft log, never
    /// those addressed to the collection (measured: Tests/EndToEnd/test_typesense_cluster.py). If
    /// another daemon swapped in a new collection meanwhile, the catalogue is read again and the
    /// write goes to the new one.
    func onCurrentCollection(_ index: String, create: Bool, _ body: (CatalogEntry) throws(BackendError) -> Void) throws(BackendError) {
        let entry = try writable(index, create: create)
        do {
            try body(entry)
        } catch .indexNotFound(let name) where name == entry.collection {
            catalog.invalidate()
            try body(try writable(index, create: create))
        }
    }

    /// A call on one collection's documents; the collection missing is `.indexNotFound(collection)`.
    func documentCall<T>(_ collection: String, _ body: () throws(TypesenseError) -> T) throws(BackendError) -> T {
        do {
            return try body()
        } catch {
            if error.isNotFound, (try? api.collection(collection)) == .some(nil) { throw .indexNotFound(collection) }
            throw error.engineError
        }
    }

    /// The primary `index`'s entry, created with an empty collection when missing and `create`.
    func writable(_ index: String, create: Bool) throws(BackendError) -> CatalogEntry {
        let snapshot = try catalog.snapshot()
        if let primary = snapshot.replicaOf[index] {
            throw .invalidParameter(
                name: "indexName", expected: "a primary index: '\(index)' is a replica of '\(primary)', write to '\(primary)'")
        }
        if let entry = snapshot.entries[index] { return entry }
        guard create else { throw .indexNotFound(index) }
        let now = TaskIDs.nowMilliseconds()
        let collection = FieldNames.collection(ofIndex: index, generation: 1)
        let settings = IndexSettings()
        try createCollection(collection, settings: settings)
        try pointAlias(of: index, at: collection)
        let entry = CatalogEntry(name: index, settings: settings.json(), collection: collection, generation: 1,
                                 createdAt: now, updatedAt: now)
        try catalog.save(entry)
        return entry
    }

    /// A replica may not be another index's replica or an index of its own with records.
    func checkReplicas(of primary: String, settings: IndexSettings, snapshot: IndexCatalog.Snapshot) throws(BackendError) {
        for replica in settings.replicas.map(\.name) {
            guard replica != primary else { throw .invalidSetting(name: "replicas", expected: "names other than the index's own") }
            if let owner = snapshot.replicaOf[replica], owner != primary {
                throw .invalidSetting(name: "replicas", expected: "indices that are not replicas of another index ('\(replica)' is one of '\(owner)')")
            }
            if snapshot.entries[replica] != nil {
                throw .invalidSetting(name: "replicas", expected: "names of new indices ('\(replica)' is an index on the cluster; delete it first)")
            }
        }
    }

    func createCollection(_ name: String, settings: IndexSettings) throws(BackendError) {
        var schema = CollectionSchema.body(collection: name, settings: settings)
        if case .array(var fields)? = schema["fields"] {
            fields.append(BrowseKey.schemaField)
            schema["fields"] = .array(fields)
        }
        _ = try call { () throws(TypesenseError) in try api.createCollection(schema) }
    }

    func pointAlias(of index: String, at collection: String) throws(BackendError) {
        try call { () throws(TypesenseError) in try api.upsertAlias(FieldNames.alias(ofIndex: index), collection: collection) }
    }

    /// Settings that change what a document holds (its searchable slots, its facet paths) need a rebuild;
    /// the others (ranking, highlighting, replicas) are applied at search time.
    static func derivationChanged(from old: IndexSettings, to new: IndexSettings) -> Bool {
        let before = DocumentBuilder(settings: old), after = DocumentBuilder(settings: new)
        return before.layout.names != after.layout.names || before.layout.isDynamic != after.layout.isDynamic
            || before.facetPaths != after.facetPaths
    }

    /// Upserts records as documents; a document the cluster refuses fails the call, naming it.
    func upsert(_ records: [JSONObject], into collection: String, settings: IndexSettings) throws(BackendError) {
        guard !records.isEmpty else { return }
        let builder = DocumentBuilder(settings: settings)
        var documents: [JSONObject] = []
        documents.reserveCapacity(records.count)
        for record in records { documents.append(BrowseKey.stamped(try builder.document(for: record))) }
        let result = try documentCall(collection) { () throws(TypesenseError) in
            try api.importDocuments(documents, collection: collection, action: .upsert)
        }
        catalog.invalidateFields(of: collection)  // new attributes add fields
        if let failure = result.failures.first {
            let objectID = records.indices.contains(failure.line) ? records[failure.line]["objectID"]?.stringValue ?? "" : ""
            throw .storage("the cluster refused the record with objectID '\(objectID)' (\(result.failed) refused in all): \(failure.error)")
        }
    }

    /// Fills a new physical collection (`fill` streams records into it), then
    /// swaps the alias and drops the old one. If anything fails the new
    /// collection is dropped and the index stays as it was.
    func rebuild(_ entry: CatalogEntry, settings: JSONObject, fill: (RecordSink) throws(BackendError) -> Void) throws(BackendError) {
        let parsed = (try? IndexSettings(json: settings)) ?? IndexSettings()
        let generation = entry.generation + 1
        let collection = FieldNames.collection(ofIndex: entry.name, generation: generation)
        _ = try? api.deleteCollection(collection)  // a leftover of a rebuild that died half-way
        try createCollection(collection, settings: parsed)
        do throws(BackendError) {
            let sink = RecordSink(backend: self, collection: collection, settings: parsed)
            try fill(sink)
            try sink.flush()
            try pointAlias(of: entry.name, at: collection)
        } catch {
            _ = try? api.deleteCollection(collection)
            throw error
        }
        var updated = entry
        updated.settings = settings
        updated.collection = collection
        updated.generation = generation
        updated.updatedAt = TaskIDs.nowMilliseconds()
        try catalog.save(updated)
        if entry.collection != collection {
            do throws(TypesenseError) {
                _ = try api.deleteCollection(entry.collection)
            } catch {
                log("typesense: the previous collection \(entry.collection) of '\(entry.name)' could not be dropped: \(error)")
            }
        }
    }

    /// Streams the index's current records into `sink` (a rebuild keeps them), but those in `except`.
    func copyRecords(of entry: CatalogEntry, into sink: RecordSink, except: Set<String> = []) throws(BackendError) {
        let documents = try call { () throws(TypesenseError) in
            try api.exportDocuments(collection: FieldNames.alias(ofIndex: entry.name), includeFields: [FieldNames.record])
        }
        for document in documents {
            guard let record = Self.record(of: document),
                  except.isEmpty || !except.contains(record["objectID"]?.stringValue ?? "") else { continue }
            try sink.add(record)
        }
    }
}

/// Batches records into a collection being built.
final class RecordSink {
    static let batchSize = 1000
    let backend: TypesenseBackend
    let collection: String
    let settings: IndexSettings
    private var pending: [JSONObject] = []

    init(backend: TypesenseBackend, collection: String, settings: IndexSettings) {
        self.backend = backend
        self.collection = collection
        self.settings = settings
    }

    func add(_ record: JSONObject) throws(BackendError) {
        pending.append(record)
        if pending.count >= Self.batchSize { try flush() }
    }

    func flush() throws(BackendError) {
        let batch = pending
        pending = []
        try backend.upsert(batch, into: collection, settings: settings)
    }
}
