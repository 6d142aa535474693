import QuarryJSON

extension RecordReader {
    /// Up to `limit` records after objectID `after` (nil: from the first), in
    /// objectID order, keeping those in `matches` (nil: all). One statement, so
    /// one read transaction: the page is a consistent view of the store.
    /// `more` says whether a further matching record exists.
    func browse(after: String?, limit: Int, matches: DocumentMatches?) throws(EngineError)
        -> (records: [(objectID: String, record: JSONObject)], more: Bool)
    {
        let statement = try connection.prepare(after == nil
            ? "SELECT docID, objectID, body FROM records ORDER BY objectID"
            : "SELECT docID, objectID, body FROM records WHERE objectID > ?1 ORDER BY objectID")
        if let after { statement.bind(1, after) }
        defer { statement.reset() }
        var records: [(objectID: String, record: JSONObject)] = []
        records.reserveCapacity(min(limit, 1000))
        while try statement.step() {
            if let matches {
                let docID = try IndexStore.docID(statement.int64(0))
                guard matches.contains(docID) else { continue }
            }
            if records.count == limit { return (records, true) }
            let record = try statement.withText(2) { (bytes) throws(EngineError) in try IndexStore.parseBody(bytes) }
            records.append((statement.string(1), record))
        }
        return (records, false)
    }
}

extension StoreRecordSource {
    func browse(after: String?, limit: Int, matches: DocumentMatches?) throws(EngineError)
        -> (records: [(objectID: String, record: JSONObject)], more: Bool)
    {
        try reader.withLock { (reader: inout RecordReader?) throws(EngineError) in
            guard let reader else { throw EngineError.storage("record reader already returned") }
            return try reader.browse(after: after, limit: limit, matches: matches)
        }
    }
}
