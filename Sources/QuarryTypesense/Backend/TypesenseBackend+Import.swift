import QuarryJSON
import QuarryRecords
import QuarrySearchContract

extension TypesenseBackend {
    /// Streams the file into a new collection that starts as a copy of the
    /// index, then swaps it in: all or nothing, as the engine's import is. A
    /// bad record, a cancel or a cluster failure drops the new collection.
    public func importRecords(
        index: String, from path: String, format: ImportFormat?, settings: JSONObject?, skipInvalid: Bool,
        progress: @Sendable (ImportProgress) -> Void, isCancelled: @Sendable () -> Bool
    ) throws(BackendError) -> ImportReceipt {
        let clock = ContinuousClock()
        let start = clock.now
        guard let format = format ?? ImportFormat(guessingFrom: path) else {
            throw .invalidParameter(name: "format", expected: "json, ndjson or csv (the file extension does not say)")
        }
        var merged: IndexSettings? = nil
        if let settings {
            var probe = IndexSettings()
            try probe.merge(settings)
        }
        var reader = try format.reader(path: path)
        try ready()
        let existed = (try? catalog.resolve(index)) != nil
        let entry = try writable(index, create: true)
        if let settings {
            var combined = entry.parsedSettings
            try combined.merge(settings)
            try checkReplicas(of: index, settings: combined, snapshot: try catalog.snapshot())
            merged = combined
        }
        var counts = ImportCounts()
        do throws(BackendError) {
            try rebuild(entry, settings: merged?.json() ?? entry.settings) { sink throws(BackendError) in
                if existed { try copyRecords(of: entry, into: sink) }
                counts = try RecordImport.readRecords(from: &reader, skipInvalid: skipInvalid, progress: progress, isCancelled: isCancelled) {
                    (_, record, _) throws(BackendError) in try sink.add(record)
                }
            }
        } catch {
            // An index this import created goes again, as the engine's does.
            if !existed { _ = try? deleteIndex(index) }
            throw error
        }
        let elapsed = clock.now - start
        return ImportReceipt(
            index: index, imported: counts.imported, skipped: counts.skipped, skippedReasons: counts.reasons, taskID: taskIDs.next(),
            durationMS: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
    }
}
