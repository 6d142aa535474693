import QuarryJSON
import QuarrySearchContract

/// Where a daemon's indices live, as its request handlers see them: the
/// embedded `Engine`, a Typesense cluster (`QuarryTypesense`), or both, routed
/// by index name (`RoutedBackend`). Sessions, the CLI and the wire contract do
/// not change with the backend; what differs is named in `description`, which
/// `initialize` reports.
///
/// Every method may be called from any thread. Queries, answers and errors are
/// the search contract's types (`QuarrySearchContract`), so both backends
/// answer in one vocabulary and the server maps one error type to JSON-RPC. A write returns only once the
/// change is visible to this backend's reads (read-your-writes).
public protocol IndexBackend: Sendable {
    var description: BackendDescription { get }

    // MARK: Reads

    /// A search's answer; its hits' match ranges are rendered in a connection's encoding where
    /// the reply or push is written.
    func search(index: String, query: SearchQuery) throws(BackendError) -> SearchResponse
    func searchForFacetValues(index: String, query: FacetValueQuery) throws(BackendError) -> FacetValuesResponse
    /// Several reads answered together, in order, each with its own result: what a session asks on
    /// one keystroke. A cluster sends them as one request (`searchEach` is the one-by-one way).
    func searchBatch(_ reads: [BatchRead]) -> [Result<SearchAnswer, BackendError>]
    /// The index's settings; a replica's carry its `primary`.
    func settings(index: String) throws(BackendError) -> IndexSettings
    func listIndices(memory: Bool) throws(BackendError) -> [IndexSummary]
    func getObjects(_ objectIDs: [String], index: String, attributesToRetrieve: [String]?) throws(BackendError) -> [JSONObject?]
    func browse(index: String, from position: BrowsePosition, hitsPerPage: Int?, attributesToRetrieve: [String]?)
        throws(BackendError) -> BrowsePage
    /// The primary of a replica, nil for a primary or an unknown name (writes are ordered per primary).
    func primary(ofReplica name: String) -> String?

    // MARK: Writes

    func saveObjects(_ objects: [JSONObject], index: String) throws(BackendError) -> WriteReceipt
    func partialUpdateObjects(_ objects: [JSONObject], index: String, createIfNotExists: Bool) throws(BackendError) -> WriteReceipt
    func deleteObjects(_ objectIDs: [String], index: String) throws(BackendError) -> WriteReceipt
    func clearObjects(index: String) throws(BackendError) -> WriteReceipt
    func setSettings(_ settings: JSONObject, index: String) throws(BackendError) -> SettingsReceipt
    /// `false` when there was no such index.
    func deleteIndex(_ name: String) throws(BackendError) -> Bool
    /// Replaces `destination` with the primary `name`'s records and/or settings, all at once
    /// (a search sees the old destination or the new); `move` then deletes the source.
    func copyIndex(_ name: String, to destination: String, records: Bool, settings: Bool, move: Bool)
        throws(BackendError) -> WriteReceipt
    /// Deletes every record the query and filters match, all or none.
    func deleteBy(index: String, query: SearchQuery) throws(BackendError) -> WriteReceipt
    /// All or nothing unless `skipInvalid`: a failed or cancelled import leaves the index as it was.
    func importRecords(
        index: String, from path: String, format: ImportFormat?, settings: JSONObject?, skipInvalid: Bool,
        progress: @Sendable (ImportProgress) -> Void, isCancelled: @Sendable () -> Bool
    ) throws(BackendError) -> ImportReceipt

    // MARK: Lifecycle

    /// What the backend can reach now (a cluster's nodes and leader); cheap enough for a status command.
    func health() -> JSONObject
    func close()
}
