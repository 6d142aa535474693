import QuarryJSON
import QuarrySearchContract

/// How the search gets the full stored record of a hit. Only called for hits on the returned page,
/// so the ranking never touches records. The storage layer implements it over SQLite.
public protocol RecordSource: Sendable {
    /// The record, nil if the store has none under `id`; a store that cannot
    /// answer throws rather than look empty.
    func record(_ id: DocID) throws(BackendError) -> JSONObject?
}

/// Records held in memory: for tests and tools.
public struct InMemoryRecords: RecordSource {
    public let records: [DocID: JSONObject]

    public init(_ records: [DocID: JSONObject]) { self.records = records }

    public init(_ pairs: some Sequence<(DocID, JSONObject)>) {
        records = Dictionary(pairs.map { ($0.0, $0.1) }, uniquingKeysWith: { _, last in last })
    }

    public func record(_ id: DocID) -> JSONObject? { records[id] }
}
