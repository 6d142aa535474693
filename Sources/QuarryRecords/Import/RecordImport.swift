import QuarryJSON
import QuarrySearchContract

/// How an import file's items become records, the same on both backends.
package enum RecordImport {
    static let maxSkippedReasons = 10

    /// Hands every good record of an import file to `keep` (objectIDs generated where missing, as
    /// `RecordRules` say), skipping bad ones when `skipInvalid`; reports progress when due and,
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
                    let (objectID, record, asIs) = try RecordRules.preparing(
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

/// What an import read: records kept, records skipped, and the first few reasons.
package struct ImportCounts {
    package var imported = 0
    package var skipped = 0
    package var reasons: [String] = []

    package init() {}
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
