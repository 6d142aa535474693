#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON
import QuarrySearchContract

/// The source of truth for one index: its records, settings and generation,
/// in one SQLite database (WAL, synchronous=FULL).
///
/// One database per index (not one per data directory) so that writes to
/// different indices never wait on SQLite's single writer lock, deleting an
/// index is deleting a folder, and its size is its files' size.
///
/// Not thread-safe: the owning `EngineIndex` calls it under its write lock.
/// Every mutation happens inside `write(_:)`, which is one transaction that
/// also bumps `generation`: a crash leaves it committed or not, never half.
///
/// Format 2 compresses records with a dictionary trained per index (see
/// `RecordCodec` and ARCHITECTURE.md); format 1 stores, all text, open as they
/// are and become format 2 when their first dictionary is saved.
final class IndexStore {
    static let schemaVersion: Int64 = 2
    static let readableVersions: ClosedRange<Int64> = 1...2
    static let replicaPrefix = "replica:"

    let path: String
    let connection: SQLiteConnection
    /// The folder holding the database, where a build of its records writes its largest arrays
    /// (`SpillFile`); nil for a path without one.
    var directory: String? { path.lastIndex(of: "/").map { String(path[..<$0]) } }
    private(set) var name: String
    private(set) var generation: UInt64
    private(set) var createdAt: Int64
    private(set) var updatedAt: Int64
    private(set) var settings: IndexSettings
    /// Each replica's own settings (only the keys set on it; the rest come
    /// from the primary), stored as meta `replica:<name>`.
    private(set) var replicaSettings: [String: JSONObject] = [:]

    let compressor: RecordCompressor
    /// The writer's own reads (`record(objectID:)`, `allRecords()`).
    let decompressor: RecordDecompressor
    /// Records written while the index has no dictionary, to train one on.
    private var sample = RecordSample()
    var recordCompaction = RecordCompactionState()

    private let insertStatement: SQLiteStatement
    private let replaceStatement: SQLiteStatement
    private let deleteStatement: SQLiteStatement
    private let bodyStatement: SQLiteStatement
    private let setMetaStatement: SQLiteStatement
    private var inTransaction = false

    /// Past this size the write-ahead log is checkpointed and truncated after a write.
    private let walLimit: Int

    /// The writer's page cache, in KiB. With SQLite's default of 2 MiB, a transaction that inserts
    /// a few hundred thousand records of 500-800 bytes spills pages to the log and rewrites them over
    /// and over: 400k records of 580 bytes wrote 1.8 GB before their commit instead of 0.25 GB. From
    /// 8 MiB up it does not happen. The cache is emptied after a write that filled it
    /// (`releaseCache`), so it costs memory only while a large write runs.
    static let cacheKiB = 32 << 10

    init(path: String, name: String, now: Int64, walLimit: Int = 64 << 20) throws(BackendError) {
        self.path = path
        self.walLimit = walLimit
        connection = try SQLiteConnection(path: path, readOnly: false)
        // Before anything writes the file's header (the switch to WAL does), so that a new store can give
        // the pages a record compaction frees back to the file (`incremental_vacuum`) rather than rewrite
        // itself whole (`VACUUM`); on an existing store it changes nothing.
        try connection.execute("PRAGMA auto_vacuum=INCREMENTAL")
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute("PRAGMA synchronous=FULL")
        // A million-record import grows the WAL; truncate it after checkpoints.
        try connection.execute("PRAGMA journal_size_limit=\(walLimit)")
        try connection.execute("PRAGMA cache_size=-\(Self.cacheKiB)")
        // A statement that may fail midway keeps its pages' prior images in a statement journal (upserts
        // did, when one statement both inserted and replaced). SQLite moves that journal to a temporary file
        // once one statement's passes 64 KiB and keeps it there for the rest of the transaction: a
        // 300k-record import then wrote 1.5 GB to it, two write calls a page of every later upsert. In
        // memory it is cut back after each statement.
        // (`VACUUM` builds its copy of the store as a temporary database: it sets this back first.)
        try connection.execute("PRAGMA temp_store=MEMORY")
        // `body` is TEXT (the JSON) or BLOB (compressed, see `RecordCodec`): TEXT affinity keeps blobs as they are.
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS records(
                docID INTEGER PRIMARY KEY, objectID TEXT NOT NULL UNIQUE, body TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS dictionaries(id INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
            """)
        compressor = try RecordCompressor()
        decompressor = try RecordDecompressor(connection: connection)
        // An upsert inserts, ignoring a known objectID, and only then replaces that row's body: a single
        // `ON CONFLICT DO UPDATE … RETURNING` opened a table for its returned row and a statement journal
        // on every call, and stored a record in 4.7 µs where these take 2.4 (Benchmarks/RESULTS.md,
        // "Records inserted, replaced only when known").
        insertStatement = try connection.prepare("INSERT OR IGNORE INTO records(objectID, body) VALUES(?1, ?2)")
        replaceStatement = try connection.prepare("UPDATE records SET body = ?2 WHERE objectID = ?1 RETURNING docID")
        deleteStatement = try connection.prepare("DELETE FROM records WHERE objectID = ?1 RETURNING docID")
        bodyStatement = try connection.prepare("SELECT docID, body FROM records WHERE objectID = ?1")
        setMetaStatement = try connection.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)")

        let meta = try Self.readMeta(connection)
        if let version = meta["schemaVersion"]?.intValue, !Self.readableVersions.contains(Int64(version)) {
            throw .storage("\(path) has schema version \(version); this quarry reads \(Self.readableVersions)")
        }
        self.name = meta["name"]?.stringValue ?? name
        generation = UInt64(meta["generation"]?.intValue ?? 0)
        createdAt = Int64(meta["createdAt"]?.intValue ?? Int(now))
        updatedAt = Int64(meta["updatedAt"]?.intValue ?? Int(now))
        settings = IndexSettings()
        if let text = meta["settings"]?.stringValue,
           case .object(let object)? = try? JSONParser.parse(text) {
            settings = try IndexSettings(json: object)
        }
        for (key, value) in meta where key.hasPrefix(Self.replicaPrefix) {
            if let text = value.stringValue, case .object(let own)? = try? JSONParser.parse(text) {
                replicaSettings[String(key.dropFirst(Self.replicaPrefix.count))] = own
            }
        }
        recordCompaction = RecordCompactionState(meta: meta)
        try loadDictionary()
        if meta["schemaVersion"] == nil {
            try connection.transaction { () throws(BackendError) in
                try setMeta("schemaVersion", .int(Self.schemaVersion))
                try setMeta("name", .string(self.name))
                try setMeta("createdAt", .int(createdAt))
                try setMeta("updatedAt", .int(updatedAt))
                try setMeta("generation", .int(0))
            }
        }
    }

    func close() { connection.close() }

    /// Runs `body` as one transaction and bumps the generation with it (so
    /// `generation` inside `body` is already the one being written).
    /// On any error nothing is written and the in-memory state is unchanged.
    func write<T>(now: Int64, _ body: () throws(BackendError) -> T) throws(BackendError) -> T {
        let saved = (generation, updatedAt, settings, replicaSettings)
        let savedCompaction = (compressor.dictionaryID, recordCompaction)
        inTransaction = true
        defer {
            inTransaction = false
            releaseCache()
        }
        let result: T
        do {
            result = try connection.transaction { () throws(BackendError) -> T in
                generation += 1
                updatedAt = now
                try setMeta("generation", .int(Int64(generation)))
                try setMeta("updatedAt", .int(now))
                return try body()
            }
        } catch {
            (generation, updatedAt, settings, replicaSettings) = saved
            if compressor.dictionaryID != savedCompaction.0 {
                // The dictionary trained in this transaction was rolled back with it.
                try? loadDictionary()
            }
            recordCompaction = savedCompaction.1
            throw error
        }
        truncateLogIfLarge()
        return result
    }

    /// Hands back the page cache a large write filled, committed or not, so an idle daemon does not
    /// keep it. A small write's few pages, within SQLite's default cache, are kept for the next one.
    func releaseCache() {
        guard connection.cacheBytes > 2 << 20 else { return }
        try? connection.execute("PRAGMA shrink_memory")
    }

    /// One transaction holds a whole import, so the log grows to the size of what it wrote (615 MB for a
    /// million products) and `journal_size_limit` only trims it when a later write starts it over, which
    /// may be never: until then the records are on disk twice. A checkpoint that truncates fixes that.
    /// Best effort: with a reader in the log it gives up, and the next write or the close tries again.
    func truncateLogIfLarge() {
        var info = stat()
        guard stat(path + "-wal", &info) == 0, Int(info.st_size) > walLimit else { return }
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    // MARK: Mutations, valid only inside `write(_:)`.

    /// Inserts or replaces by objectID; a replaced record keeps its docID.
    func upsert(objectID: String, body: [UInt8]) throws(BackendError) -> DocID {
        try upsert(objectID: objectID, prepared: PreparedRecordBody(json: body))
    }

    /// `upsert` of a record prepared off this thread: its blob (or text) is bound as it is when it was
    /// compressed with the dictionary the store compresses with now, else the JSON is compressed here.
    func upsert(objectID: String, prepared: PreparedRecordBody) throws(BackendError) -> DocID {
        precondition(inTransaction, "IndexStore mutation outside write(_:)")
        let body = try storedBody(prepared)
        insertStatement.bind(1, objectID)
        body.bind(2, to: insertStatement)
        do {
            defer { insertStatement.reset() }
            _ = try insertStatement.step()
        }
        if connection.changes == 1 { return try Self.docID(connection.lastInsertRowID) }
        replaceStatement.bind(1, objectID)
        body.bind(2, to: replaceStatement)
        defer { replaceStatement.reset() }
        guard try replaceStatement.step() else { throw .storage("upsert returned no docID") }
        return try Self.docID(replaceStatement.int64(0))
    }

    /// What `records.body` holds for a record (`RecordCodec`).
    private enum StoredBody {
        case blob([UInt8])
        case text([UInt8])

        func bind(_ index: Int32, to statement: SQLiteStatement) {
            switch self {
            case .blob(let bytes): statement.bind(index, blob: bytes)
            case .text(let bytes): statement.bind(index, utf8: bytes)
            }
        }
    }

    private func storedBody(_ prepared: PreparedRecordBody) throws(BackendError) -> StoredBody {
        if let dictionary = prepared.dictionary, dictionary === compressor.dictionary {
            return prepared.blob.map(StoredBody.blob) ?? .text(prepared.json)
        }
        return try compressed(prepared.json).map(StoredBody.blob) ?? .text(prepared.json)
    }

    func delete(objectID: String) throws(BackendError) -> DocID? {
        precondition(inTransaction, "IndexStore mutation outside write(_:)")
        deleteStatement.bind(1, objectID)
        defer { deleteStatement.reset() }
        guard try deleteStatement.step() else { return nil }
        let id = try Self.docID(deleteStatement.int64(0))
        while try deleteStatement.step() {}
        return id
    }

    func deleteAll() throws(BackendError) {
        precondition(inTransaction, "IndexStore mutation outside write(_:)")
        try connection.execute("DELETE FROM records")
    }

    func replaceSettings(_ newSettings: IndexSettings) throws(BackendError) {
        precondition(inTransaction, "IndexStore mutation outside write(_:)")
        try setMeta("settings", .string(JSONWriter.string(.object(newSettings.json()))))
        settings = newSettings
    }

    /// Sets (or with nil, forgets) one replica's own settings.
    func replaceReplicaSettings(_ name: String, _ own: JSONObject?) throws(BackendError) {
        precondition(inTransaction, "IndexStore mutation outside write(_:)")
        if let own {
            try setMeta(Self.replicaPrefix + name, .string(JSONWriter.string(.object(own))))
        } else {
            let statement = try connection.prepare("DELETE FROM meta WHERE key = ?1")
            statement.bind(1, Self.replicaPrefix + name)
            try statement.run()
        }
        replicaSettings[name] = own
    }

    /// The settings a replica searches with: the primary's, overlaid with the
    /// keys set on the replica (own keys were validated when they were set).
    func effectiveSettings(replica name: String) -> IndexSettings {
        var effective = settings
        effective.replicas = []
        try? effective.merge(replicaSettings[name] ?? [:])
        effective.primary = self.name
        effective.isVirtualReplica = settings.replicas.first(where: { $0.name == name })?.isVirtual ?? false
        return effective
    }

    // MARK: Reads (the writer sees its own uncommitted writes).

    func record(objectID: String) throws(BackendError) -> (DocID, JSONObject)? {
        bodyStatement.bind(1, objectID)
        defer { bodyStatement.reset() }
        guard try bodyStatement.step() else { return nil }
        let id = try Self.docID(bodyStatement.int64(0))
        let object = try decompressor.withJSON(bodyStatement, column: 1) { (bytes) throws(BackendError) in try Self.parseBody(bytes) }
        return (id, object)
    }

    /// Every record in docID order, read lazily for a streaming index build.
    func allRecords() throws(BackendError) -> StoredRecords {
        try StoredRecords(statement: connection.prepare("SELECT docID, body FROM records ORDER BY docID"), decompressor: decompressor)
    }

    /// The largest docID stored, 0 exactly when none is (SQLite numbers rows from 1): a new record gets a
    /// larger one.
    func maxDocID() throws(BackendError) -> Int64 {
        let statement = try connection.prepare("SELECT coalesce(max(docID), 0) FROM records")
        _ = try statement.step()
        return statement.int64(0)
    }

    func count() throws(BackendError) -> Int {
        let statement = try connection.prepare("SELECT count(*) FROM records")
        _ = try statement.step()
        return Int(statement.int64(0))
    }

    // MARK: Record compression

    /// The dictionary records are compressed with now (nil: stored as text and sampled).
    var recordDictionary: RecordDictionary? { compressor.dictionary }

    /// The blob to store for `body`, or nil to store its text. Until the index
    /// has a dictionary, records are stored as text and sampled; the write that
    /// fills the sample trains the dictionary, inside that write's transaction.
    private func compressed(_ body: [UInt8]) throws(BackendError) -> [UInt8]? {
        if compressor.dictionaryID == nil {
            sample.add(body)
            if sample.isFull {
                let full = sample
                sample = RecordSample()
                _ = try saveDictionary(trainedOn: full)
            }
        }
        return try compressor.compress(body)
    }

    /// Trains a dictionary on `sample`, stores it under the next id and
    /// compresses with it from now on; inside a transaction. Records stored
    /// before keep the id they were compressed with (dictionaries are never
    /// deleted), and those stored as text up to now are the record compaction's
    /// to rewrite. false when zstd finds nothing worth a dictionary.
    func saveDictionary(trainedOn sample: RecordSample) throws(BackendError) -> Bool {
        guard let bytes = sample.train() else { return false }
        let next = try connection.prepare("SELECT coalesce(max(id), 0) + 1 FROM dictionaries")
        _ = try next.step()
        let id = next.int64(0)
        guard let dictionaryID = UInt32(exactly: id) else { throw .storage("record dictionary id \(id) is out of range") }
        let insert = try connection.prepare("INSERT INTO dictionaries(id, bytes) VALUES(?1, ?2)")
        insert.bind(1, id)
        insert.bind(2, blob: bytes)
        try insert.run()
        try setMeta("schemaVersion", .int(Self.schemaVersion))
        if compressor.dictionaryID == nil {
            recordCompaction.rawThrough = try maxDocID()
            try setMeta(RecordCompactionState.rawThroughKey, .int(recordCompaction.rawThrough))
        }
        try compressor.use(dictionaryID: dictionaryID, bytes: bytes)
        return true
    }

    /// Compresses with the newest committed dictionary, if any.
    private func loadDictionary() throws(BackendError) {
        let statement = try connection.prepare("SELECT id, bytes FROM dictionaries ORDER BY id DESC LIMIT 1")
        guard try statement.step(), let id = UInt32(exactly: statement.int64(0)) else {
            try compressor.use(dictionaryID: nil, bytes: [])
            return
        }
        let bytes = try statement.withBlob(1) { (blob) throws(BackendError) in Array(blob) }
        try compressor.use(dictionaryID: id, bytes: bytes)
    }

    // MARK: Helpers

    func setMeta(_ key: String, _ value: JSON) throws(BackendError) {
        setMetaStatement.bind(1, key)
        switch value {
        case .int(let i): setMetaStatement.bind(2, i)
        case .string(let s): setMetaStatement.bind(2, s)
        default: setMetaStatement.bind(2, JSONWriter.string(value))
        }
        try setMetaStatement.run()
    }

    private static func readMeta(_ connection: SQLiteConnection) throws(BackendError) -> [String: JSON] {
        let statement = try connection.prepare("SELECT key, value FROM meta")
        var meta: [String: JSON] = [:]
        while try statement.step() {
            let key = statement.string(0)
            let isText = key == "name" || key == "settings" || key.hasPrefix(replicaPrefix)
            meta[key] = isText ? .string(statement.string(1)) : .int(statement.int64(1))
        }
        return meta
    }

    static func docID(_ raw: Int64) throws(BackendError) -> DocID {
        guard let id = DocID(exactly: raw) else { throw .storage("docID \(raw) is out of range") }
        return id
    }

    static func parseBody(_ bytes: UnsafeBufferPointer<UInt8>) throws(BackendError) -> JSONObject {
        guard case .object(let object)? = try? JSONParser.parse(buffer: bytes) else {
            throw .storage("a stored record is not a JSON object (database damaged?)")
        }
        return object
    }
}
