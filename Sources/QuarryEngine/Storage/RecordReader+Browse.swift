import QuarryJSON
import QuarrySearchContract

extension RecordReader {
    /// Up to `limit` records after docID `after` (nil: from the first), in
    /// docID order, keeping those in `matches` (nil: all). One statement, so
    /// one read transaction: the page is a consistent view of the store.
    /// `more` says whether a further matching record exists.
    ///
    /// DocID order is the order ties are ranked in (a record keeps its docID when
    /// replaced), so an index imported from a browse ranks ties as its source does.
    func browse(after: Int64?, limit: Int, matches: DocumentMatches?) throws(BackendError)
        -> (records: [(docID: Int64, objectID: String, record: JSONObject)], more: Bool)
    {
        let statement = try connection.prepare(after == nil
            ? "SELECT docID, objectID, body FROM records ORDER BY docID"
            : "SELECT docID, objectID, body FROM records WHERE docID > ?1 ORDER BY docID")
        if let after { statement.bind(1, after) }
        defer { statement.reset() }
        var records: [(docID: Int64, objectID: String, record: JSONObject)] = []
        records.reserveCapacity(min(limit, 1000))
        while try statement.step() {
            if let matches {
                let docID = try IndexStore.docID(statement.int64(0))
                guard matches.contains(docID) else { continue }
            }
            if records.count == limit { return (records, true) }
            let record = try decompressor.withJSON(statement, column: 2) { (bytes) throws(BackendError) in
                try IndexStore.parseBody(bytes)
            }
            records.append((statement.int64(0), statement.string(1), record))
        }
        return (records, false)
    }
}

extension StoreRecordSource {
    func browse(after: Int64?, limit: Int, matches: DocumentMatches?) throws(BackendError)
        -> (records: [(docID: Int64, objectID: String, record: JSONObject)], more: Bool)
    {
        try reader.withLock { (reader: inout RecordReader?) throws(BackendError) in
            guard let reader else { throw BackendError.storage("record reader already returned") }
            return try reader.browse(after: after, limit: limit, matches: matches)
        }
    }
}
