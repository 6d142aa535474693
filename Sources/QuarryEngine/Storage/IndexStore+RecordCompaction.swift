/// Where the record compaction stands, kept in `meta` and updated in the same
/// transaction as the rows it rewrote, so a crash resumes it where it stopped.
struct RecordCompactionState: Equatable {
    static let rawThroughKey = "recordsRawThrough"
    static let compactedThroughKey = "recordsCompactedThrough"
    static let vacuumDueKey = "recordsVacuumDue"

    /// The largest docID when the first dictionary was saved: every record
    /// written since is compressed, so text rows lie at or below it.
    var rawThrough: Int64 = 0
    /// Rows up to this docID have been looked at.
    var compactedThrough: Int64 = 0
    /// Rows were rewritten and the pages they left are not yet given back.
    var vacuumDue = false

    init() {}

    init(meta: [String: JSON]) {
        rawThrough = Int64(meta[Self.rawThroughKey]?.intValue ?? 0)
        compactedThrough = Int64(meta[Self.compactedThroughKey]?.intValue ?? 0)
        vacuumDue = (meta[Self.vacuumDueKey]?.intValue ?? 0) != 0
    }

    /// Whether the pages the rewritten rows left are given back by repacking the whole file (`VACUUM`)
    /// rather than by handing back the pages left wholly free (`incremental_vacuum`). A row rewritten
    /// compressed shrinks in place, so only a repack returns most of what it freed, at the cost of
    /// rewriting every row under the index's write lock: worth it when the text rows were a quarter of the
    /// store or more (a format 1 store, a small index), not after a large import whose first 2,000 records
    /// waited for the dictionary (the repack after a 1M-record import rewrote the 241 MiB file, 1.5 s of
    /// CPU, and left it the same size).
    func repacks(rows: Int64) -> Bool { rawThrough * 4 >= rows }
}

import QuarryJSON
import QuarrySearchContract

extension IndexStore {
    static let compactionBatch = 1000

    /// One bounded step of the record compaction, which rewrites as compressed
    /// the records stored as text (those written before the index had a
    /// dictionary, or every record of a format 1 store), then gives the freed
    /// pages back to the file. true while steps remain.
    ///
    /// Each step is its own transaction of at most `batch` rows, run by the
    /// caller under the index's write lock: a write waits for one step at most,
    /// searches not at all (their readers see the last commit), and a crash
    /// leaves every row either as it was or rewritten, with the cursor saying
    /// which. The generation stays: the records' JSON is unchanged, so the search
    /// files stay valid.
    func compactRecords(batch: Int = IndexStore.compactionBatch) throws(BackendError) -> Bool {
        // A vacuum moves pages through the writer's large cache: an idle daemon should not keep them.
        defer { releaseCache() }
        if compressor.dictionaryID == nil {
            return try trainOnStoredRecords()
        }
        var state = recordCompaction
        if state.compactedThrough < state.rawThrough {
            try connection.transaction { () throws(BackendError) in
                let rows = try textRows(after: state.compactedThrough, through: state.rawThrough, limit: batch)
                let update = try connection.prepare("UPDATE records SET body = ?2 WHERE docID = ?1")
                for (docID, json) in rows.text {
                    guard let blob = try compressor.compress(json) else { continue }
                    update.bind(1, docID)
                    update.bind(2, blob: blob)
                    try update.run()
                    state.vacuumDue = true
                }
                state.compactedThrough = rows.last ?? state.rawThrough
                try setMeta(RecordCompactionState.compactedThroughKey, .int(state.compactedThrough))
                try setMeta(RecordCompactionState.vacuumDueKey, .int(state.vacuumDue ? 1 : 0))
            }
            recordCompaction = state
            truncateLogIfLarge()
            return true
        }
        guard state.vacuumDue else { return false }
        try giveBackFreePages()
        try connection.transaction { () throws(BackendError) in
            try setMeta(RecordCompactionState.vacuumDueKey, .int(0))
        }
        recordCompaction.vacuumDue = false
        return false
    }

    /// The text rows among the next `limit` rows after `after`, and the last docID looked at (nil: none left).
    private func textRows(after: Int64, through: Int64, limit: Int) throws(BackendError)
        -> (text: [(Int64, [UInt8])], last: Int64?)
    {
        let statement = try connection.prepare(
            "SELECT docID, typeof(body) = 'text', body FROM records WHERE docID > ?1 AND docID <= ?2 ORDER BY docID LIMIT ?3")
        statement.bind(1, after)
        statement.bind(2, through)
        statement.bind(3, Int64(limit))
        defer { statement.reset() }
        var text: [(Int64, [UInt8])] = []
        var last: Int64?
        while try statement.step() {
            last = statement.int64(0)
            guard statement.int64(1) == 1 else { continue }
            text.append((statement.int64(0), try statement.withText(2) { Array($0) }))
        }
        return (text, last)
    }

    /// A store with records but no dictionary (format 1, or too few records
    /// written since this process opened it) trains one on its first records.
    private func trainOnStoredRecords() throws(BackendError) -> Bool {
        let statement = try connection.prepare(
            "SELECT body FROM records WHERE typeof(body) = 'text' ORDER BY docID LIMIT \(RecordSample.records)")
        var sample = RecordSample()
        while try statement.step() {
            sample.add(try statement.withText(0) { Array($0) })
        }
        guard sample.isFull else { return false }
        let saved = recordCompaction
        do {
            return try connection.transaction { () throws(BackendError) -> Bool in try saveDictionary(trainedOn: sample) }
        } catch {
            recordCompaction = saved
            throw error
        }
    }

    /// Shrinks the file by the pages the rewritten rows left. A store created
    /// before incremental auto-vacuum (format 1) needs one full VACUUM to turn it on.
    private func giveBackFreePages() throws(BackendError) {
        let mode = try connection.prepare("PRAGMA auto_vacuum")
        _ = try mode.step()
        let incremental = mode.int64(0) == 2
        mode.reset()
        if incremental, !recordCompaction.repacks(rows: try maxDocID()) {
            try connection.execute("PRAGMA incremental_vacuum")
        } else {
            // A store made before auto-vacuum becomes incremental with its repack.
            try connection.execute("PRAGMA auto_vacuum=INCREMENTAL")
            // The copy of the whole store goes to a file, not the heap (see `IndexStore.init`).
            try connection.execute("PRAGMA temp_store=FILE")
            defer { try? connection.execute("PRAGMA temp_store=MEMORY") }
            try connection.execute("VACUUM")
        }
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
