import QuarryJSON
import QuarrySearchContract

extension Engine {
    /// Deletes every record of the primary `name` that the query and filters match, in one
    /// transaction. Writes to `name` must be ordered by the caller (the server does), so
    /// what the browse found is what is deleted.
    public func deleteBy(index name: String, query: SearchQuery) throws(BackendError) -> WriteReceipt {
        _ = try existing(name)
        let objectIDs = try MatchingRecords.objectIDs(query: query) { (position) throws(BackendError) in
            try browse(index: name, from: position, attributesToRetrieve: ["objectID"])
        }
        let receipt = try deleteObjects(objectIDs, index: name)
        return WriteReceipt(objectIDs: [], taskID: receipt.taskID)
    }
}
