import CSQLite

/// One sqlite3 connection: open, run statements, transactions, errors as
/// `EngineError.storage` with SQLite's own message.
///
/// Not thread-safe by itself: a connection is confined to one owner (the
/// index's write lock, or one borrowed reader), so it opens with NOMUTEX.
final class SQLiteConnection {
    let path: String
    private(set) var handle: OpaquePointer?

    init(path: String, readOnly: Bool) throws(EngineError) {
        self.path = path
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(code)"
            sqlite3_close_v2(db)
            throw .storage("cannot open \(path): \(message)")
        }
        handle = db
        // Readers may meet a checkpoint or a writer's lock on the WAL index briefly.
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { close() }

    func close() {
        guard let db = handle else { return }
        sqlite3_close_v2(db)
        handle = nil
    }

    /// Runs SQL text that returns no rows (pragmas, DDL, BEGIN/COMMIT).
    func execute(_ sql: String) throws(EngineError) {
        guard let db = handle else { throw .storage("connection to \(path) is closed") }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "code \(code)"
            sqlite3_free(message)
            throw .storage("\(text) (in: \(sql.prefix(60)))")
        }
    }

    func prepare(_ sql: String) throws(EngineError) -> SQLiteStatement {
        guard let db = handle else { throw .storage("connection to \(path) is closed") }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw .storage("\(errorMessage) (preparing: \(sql.prefix(60)))")
        }
        return SQLiteStatement(statement, connection: self)
    }

    var errorMessage: String {
        guard let db = handle else { return "connection closed" }
        return String(cString: sqlite3_errmsg(db))
    }

    /// Runs `body` in one IMMEDIATE transaction: all of it commits, or none of it.
    func transaction<T>(_ body: () throws(EngineError) -> T) throws(EngineError) -> T {
        try execute("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }
}
