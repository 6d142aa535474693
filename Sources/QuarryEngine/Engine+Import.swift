import QuarryJSON
import QuarryRecords
import QuarrySearchContract

extension Engine {
    /// Streams a JSON (one array), NDJSON or CSV file into `index`, adding or
    /// replacing records by objectID (generated when missing).
    ///
    /// The whole import is one transaction: a bad record aborts it and leaves
    /// the index as it was (an index this call created is removed again),
    /// unless `skipInvalid`, which skips bad records and reports the first
    /// few. `settings`, when given, are merged in the same transaction. The
    /// file is never loaded whole; `storeAll` says how the search index follows.
    public func importRecords(
        index name: String, from path: String, format: ImportFormat? = nil, settings: JSONObject? = nil,
        skipInvalid: Bool = false, progress: @Sendable (ImportProgress) -> Void = { _ in },
        isCancelled: @Sendable () -> Bool = { false }
    ) throws(BackendError) -> ImportReceipt {
        let clock = ContinuousClock()
        let start = clock.now
        guard let format = format ?? ImportFormat(guessingFrom: path) else {
            throw .invalidParameter(name: "format", expected: "json, ndjson or csv (the file extension does not say)")
        }
        if let settings {
            var probe = IndexSettings()
            try probe.merge(settings)
        }
        // The reading thread also compresses each record's text with the index's dictionary (once it has
        // one), so that the storing thread, the critical path of an import, only binds it.
        let dictionary = CurrentRecordDictionary()
        let readAhead = ReadAheadImportReader(try format.reader(path: path)) {
            let compressor = try? RecordCompressor()
            return { item in
                guard let compressor, case .value(_, _, let text?) = item else { return nil }
                return dictionary.prepare(text, with: compressor)
            }
        }
        var reader: any ImportReader = readAhead
        let declaresReplicas = settings.map(Self.declaresReplicas) ?? false

        func run(lifecycleHeld: Bool) throws(BackendError) -> ImportReceipt {
            let plan = declaresReplicas ? try replicaPlan(primary: name, settings: settings ?? [:]) : nil
            let outcome = try performWrite(index: name, create: true, lifecycleHeld: lifecycleHeld) {
                (store, before) throws(BackendError) in
                if let settings {
                    var merged = store.settings
                    try merged.merge(settings)
                    try store.replaceSettings(merged)
                    try plan?.apply(to: store)
                }
                return try Self.storeAll(
                    from: &reader, readAhead: readAhead, dictionary: dictionary, into: store, before: before, skipInvalid: skipInvalid,
                    progress: progress, isCancelled: isCancelled)
            }
            if let plan { finish(plan, primary: name) }
            let elapsed = clock.now - start
            return ImportReceipt(
                index: name, imported: outcome.result.imported, skipped: outcome.result.skipped,
                skippedReasons: outcome.result.reasons, taskID: Int64(outcome.generation),
                durationMS: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
        }
        if declaresReplicas {
            return try lifecycle.withLock { () throws(BackendError) in try run(lifecycleHeld: true) }
        }
        return try run(lifecycleHeld: false)
    }

    /// Reads every item and upserts the good ones; runs inside the transaction. The views follow as
    /// `EngineImportBuild` builds them, from the records as they are stored, on threads of their own,
    /// unless the import changed the settings a view was built with: then each is rebuilt from the store.
    /// The records' text comes compressed by `readAhead`'s thread (`dictionary` tells it the store's).
    private static func storeAll(
        from reader: inout any ImportReader, readAhead: ReadAheadImportReader, dictionary: CurrentRecordDictionary,
        into store: IndexStore, before: EngineIndexViews, skipInvalid: Bool,
        progress: (ImportProgress) -> Void, isCancelled: () -> Bool
    ) throws(BackendError) -> (ImportCounts, EngineIndexChange) {
        var published = store.recordDictionary
        dictionary.publish(published)
        func storeRecords(_ keep: (DocID, JSONObject) -> Void) throws(BackendError) -> ImportCounts {
            try RecordImport.readRecords(from: &reader, skipInvalid: skipInvalid, progress: progress, isCancelled: isCancelled) {
                (objectID, record, text) throws(BackendError) in
                // The text kept is the item's own, the one `readAhead` prepared.
                let body: PreparedRecordBody
                if let text {
                    body = readAhead.prepared as? PreparedRecordBody ?? PreparedRecordBody(json: text)
                } else {
                    body = PreparedRecordBody(json: JSONWriter.encode(.object(record)))
                }
                keep(try store.upsert(objectID: objectID, prepared: body), record)
                if store.recordDictionary !== published {
                    published = store.recordDictionary
                    dictionary.publish(published)
                }
            }
        }
        guard let build = try EngineImportBuild(store: store, before: before) else {
            return (try storeRecords { _, _ in }, .rebuild(only: nil))
        }
        let counts: ImportCounts
        do {
            counts = try storeRecords { build.add(docID: $0, record: $1) }
        } catch {
            build.abandon()
            throw error
        }
        return (counts, .building(build))
    }
}
