import QuarryJSON
import QuarrySearchContract

/// Every stored record, stepped lazily from SQLite so an index build over a
/// million records holds one record at a time, not the table.
///
/// A sequence cannot throw, so a failure ends it early and is kept in
/// `failure`; the caller must check it after iterating.
final class StoredRecords: Sequence, IteratorProtocol {
    private let statement: SQLiteStatement
    private let decompressor: RecordDecompressor
    private(set) var failure: BackendError?

    init(statement: SQLiteStatement, decompressor: RecordDecompressor) {
        self.statement = statement
        self.decompressor = decompressor
    }

    func next() -> (DocID, JSONObject)? {
        guard failure == nil else { return nil }
        do {
            guard try statement.step() else { return nil }
            let id = try IndexStore.docID(statement.int64(0))
            let object = try decompressor.withJSON(statement, column: 1) { (bytes) throws(BackendError) in
                try IndexStore.parseBody(bytes)
            }
            return (id, object)
        } catch {
            failure = error
            return nil
        }
    }

    func makeIterator() -> StoredRecords { self }
}
