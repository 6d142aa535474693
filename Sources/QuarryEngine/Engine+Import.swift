import QuarryJSON
import QuarrySearchContract

extension Engine {
    static let maxSkippedReasons = 10

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
        var reader: any ImportReader = ReadAheadImportReader(try format.reader(path: path))
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
                    from: &reader, into: store, before: before, skipInvalid: skipInvalid,
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

    /// What an import read: records kept, records skipped, and the first few reasons.
    package struct ImportCounts {
        package var imported = 0
        package var skipped = 0
        package var reasons: [String] = []

        package init() {}
    }

    /// Reads every item and upserts the good ones; runs inside the transaction. The views follow as
    /// `EngineImportBuild` builds them, from the records as they are stored, on threads of their own,
    /// unless the import changed the settings a view was built with: then each is rebuilt from the store.
    private static func storeAll(
        from reader: inout any ImportReader, into store: IndexStore, before: EngineIndexViews, skipInvalid: Bool,
        progress: (ImportProgress) -> Void, isCancelled: () -> Bool
    ) throws(BackendError) -> (ImportCounts, EngineIndexChange) {
        func storeRecords(_ keep: (DocID, JSONObject) -> Void) throws(BackendError) -> ImportCounts {
            try readRecords(from: &reader, skipInvalid: skipInvalid, progress: progress, isCancelled: isCancelled) {
                (objectID, record, text) throws(BackendError) in
                keep(try store.upsert(objectID: objectID, body: text ?? JSONWriter.encode(.object(record))), record)
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

    /// Hands every good record of an import file to `keep` (objectIDs generated where missing, as
    /// the engine's rules say), skipping bad ones when `skipInvalid`; reports progress when due and,
    /// at the same moments, throws `.cancelled` if the caller cancelled. Both backends import
    /// through it, so they accept, skip and report alike. `keep` also gets the record's JSON text
    /// as the file had it, when the reader kept it and the rules left the record as it was: parsed,
    /// that text is the record, so storing it spares encoding the record again.
    package static func readRecords(
        from reader: inout any ImportReader, skipInvalid: Bool, progress: (ImportProgress) -> Void, isCancelled: () -> Bool,
        _ keep: (String, JSONObject, [UInt8]?) throws(BackendError) -> Void
    ) throws(BackendError) -> ImportCounts {
        var counts = ImportCounts()
        var throttle = ImportProgressThrottle()
        func report(final: Bool) throws(BackendError) {
            guard final || throttle.isDue(records: counts.imported + counts.skipped) else { return }
            progress(ImportProgress(
                bytesRead: reader.bytesRead, totalBytes: reader.totalBytes, records: counts.imported, skipped: counts.skipped))
            if isCancelled() { throw .cancelled }
        }
        while let item = try reader.next() {
            do throws(BackendError) {
                switch item {
                case .invalid(let position, let reason):
                    throw BackendError.invalidRecord(position: position.description, reason: reason)
                case .value(let value, let position, let text):
                    let (objectID, record, asIs) = try EngineRecordRules.preparing(
                        value, position: position.description, generate: true)
                    try keep(objectID, record, asIs ? text : nil)
                    counts.imported += 1
                }
            } catch {
                guard skipInvalid, case .invalidRecord = error else { throw error }
                counts.skipped += 1
                if counts.reasons.count < maxSkippedReasons { counts.reasons.append(error.description) }
            }
            try report(final: false)
        }
        try report(final: true)
        return counts
    }
}

/// Decides when an import reports progress: every 10,000 records, or when
/// 100 ms have passed (the clock is read only every 256 records).
struct ImportProgressThrottle {
    private let clock = ContinuousClock()
    private var lastReport: ContinuousClock.Instant
    private var lastRecords = 0

    init() {
        lastReport = clock.now
    }

    mutating func isDue(records: Int) -> Bool {
        if records - lastRecords >= 10_000 || (records % 256 == 0 && clock.now - lastReport >= .milliseconds(100)) {
            lastRecords = records
            lastReport = clock.now
            return true
        }
        return false
    }
}
