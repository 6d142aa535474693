import QuarryJSON
import QuarrySync
import QuarrySearchContract

/// Where a search gets the records of its hits: read-only SQLite connections
/// with a prepared lookup by docID, lent one per search and kept for reuse.
///
/// Readers never block the writer (WAL) and see the last committed state.
final class RecordReaderPool: Sendable {
    private struct State {
        var idle: [RecordReader] = []
        var closed = false
    }

    private let path: String
    private let indexName: String
    private let state = Locked(State())
    private let maxIdle = 4

    init(path: String, indexName: String) {
        self.path = path
        self.indexName = indexName
    }

    /// Readers kept for reuse.
    var idleCount: Int { state.withLock { $0.idle.count } }

    /// Lends a record source for the duration of `body`.
    func withSource<T>(_ body: (StoreRecordSource) throws(BackendError) -> T) throws(BackendError) -> T {
        let reader = try borrow()
        let source = StoreRecordSource(reader: reader)
        defer { giveBack(source.detach()) }
        return try body(source)
    }

    /// Closes idle readers now, and lent ones when they come back.
    func close() {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        idle.forEach { $0.close() }
    }

    private func borrow() throws(BackendError) -> RecordReader {
        let reused: RecordReader? = try state.withLock { (state) throws(BackendError) in
            // Closed means deleted (or the engine closed) after the search found the index.
            if state.closed { throw BackendError.indexNotFound(indexName) }
            return state.idle.popLast()
        }
        if let reused { return reused }
        return try RecordReader(path: path)
    }

    private func giveBack(_ reader: RecordReader?) {
        guard let reader else { return }
        let kept = state.withLock { state in
            guard !state.closed, state.idle.count < maxIdle else { return false }
            state.idle.append(reader)
            return true
        }
        if !kept { reader.close() }
    }
}

/// One read-only connection, its lookup statements and its decompressor.
final class RecordReader {
    let connection: SQLiteConnection
    let decompressor: RecordDecompressor
    private let lookup: SQLiteStatement
    private let lookupByObjectID: SQLiteStatement

    init(path: String) throws(BackendError) {
        connection = try SQLiteConnection(path: path, readOnly: true)
        decompressor = try RecordDecompressor(connection: connection)
        lookup = try connection.prepare("SELECT body FROM records WHERE docID = ?1")
        lookupByObjectID = try connection.prepare("SELECT body FROM records WHERE objectID = ?1")
    }

    func record(_ id: DocID) throws(BackendError) -> JSONObject? {
        lookup.bind(1, Int64(id))
        return try body(lookup)
    }

    func record(objectID: String) throws(BackendError) -> JSONObject? {
        lookupByObjectID.bind(1, objectID)
        return try body(lookupByObjectID)
    }

    /// nil only when there is no such row: a damaged page or body is an error,
    /// never a record that seems not to exist.
    private func body(_ statement: SQLiteStatement) throws(BackendError) -> JSONObject? {
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try decompressor.withJSON(statement, column: 0) { (bytes) throws(BackendError) in try IndexStore.parseBody(bytes) }
    }

    func close() { connection.close() }
}

/// The `RecordSource` a search sees: one borrowed reader, serialised by a lock
/// because the protocol is `Sendable` and a search could fan out.
final class StoreRecordSource: RecordSource, Sendable {
    let reader: Locked<RecordReader?>

    init(reader: RecordReader) {
        self.reader = Locked(reader)
    }

    func record(_ id: DocID) throws(BackendError) -> JSONObject? {
        try reader.withLock { (reader: inout RecordReader?) throws(BackendError) in try reader?.record(id) }
    }

    func record(objectID: String) throws(BackendError) -> JSONObject? {
        try reader.withLock { (reader: inout RecordReader?) throws(BackendError) in try reader?.record(objectID: objectID) }
    }

    /// Takes the reader back; later lookups (none expected) return nil.
    fileprivate func detach() -> RecordReader? {
        reader.withLock { reader in
            defer { reader = nil }
            return reader
        }
    }
}
