import QuarryJSON
import QuarrySearchContract

extension TypesenseBackend {
    /// Rebuilds the index without the records the query and filters match, then swaps it in:
    /// deleting document by document could stop half-way, a swap is all or nothing.
    public func deleteBy(index: String, query: SearchQuery) throws(BackendError) -> WriteReceipt {
        try ready()
        let entry = try writable(index, create: false)
        let doomed = Set(try MatchingRecords.objectIDs(query: query) { (position) throws(BackendError) in
            try browse(index: index, from: position, hitsPerPage: nil, attributesToRetrieve: ["objectID"])
        })
        if !doomed.isEmpty {
            try rebuild(entry, settings: entry.settings) { sink throws(BackendError) in
                try copyRecords(of: entry, into: sink, except: doomed)
            }
        }
        return WriteReceipt(objectIDs: [], taskID: taskIDs.next())
    }
}
