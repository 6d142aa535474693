import CSQLite
#if canImport(Glibc)
import Glibc
import QuarrySearchContract
#endif

/// One sqlite3 connection: open, run statements, transactions, errors as
/// `BackendError.storage` with SQLite's own message.
///
/// Not thread-safe by itself: a connection is confined to one owner (the
/// index's write lock, or one borrowed reader), so it opens with NOMUTEX.
final class SQLiteConnection {
    let path: String
    private(set) var handle: OpaquePointer?

    init(path: String, readOnly: Bool) throws(BackendError) {
        self.path = path
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(code)"
            let systemError = db.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(db)
            throw Self.failure(code: code, systemError: systemError, "cannot open \(path): \(message)")
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
    func execute(_ sql: String) throws(BackendError) {
        guard let db = handle else { throw .storage("connection to \(path) is closed") }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "code \(code)"
            sqlite3_free(message)
            throw failure(code: code, "\(text) (in: \(sql.prefix(60)))")
        }
    }

    func prepare(_ sql: String) throws(BackendError) -> SQLiteStatement {
        guard let db = handle else { throw .storage("connection to \(path) is closed") }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw failure(code: code, "\(errorMessage) (preparing: \(sql.prefix(60)))")
        }
        return SQLiteStatement(statement, connection: self)
    }

    /// The error for a failed call that returned `code`, classified so a full
    /// disk or an exhausted limit is not reported as a damaged store.
    func failure(code: Int32, _ reason: String) -> BackendError {
        Self.failure(code: code, systemError: handle.map { sqlite3_system_errno($0) } ?? 0, "\(path): \(reason)")
    }

    static func failure(code: Int32, systemError: Int32, _ reason: String) -> BackendError {
        // SQLite's messages are generic ("unable to open database file"); the errno says why.
        let reason = systemError == 0 ? reason : "\(reason) (\(String(cString: strerror(systemError))))"
        switch code & 0xFF {
        case SQLITE_FULL: return .diskFull(reason)
        case SQLITE_NOMEM: return .resourceExhausted(reason)
        case SQLITE_CANTOPEN where [EMFILE, ENFILE].contains(systemError): return .resourceExhausted(reason)
        case SQLITE_IOERR where [ENOSPC, EDQUOT].contains(systemError): return .diskFull(reason)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .storage("the store is damaged: \(reason)")
        default: return .storage(reason)
        }
    }

    /// Heap bytes the connection's page cache holds now.
    var cacheBytes: Int {
        guard let db = handle else { return 0 }
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Rows the last finished INSERT, UPDATE or DELETE changed.
    var changes: Int {
        guard let db = handle else { return 0 }
        return Int(sqlite3_changes(db))
    }

    /// The rowid of the last row an INSERT added on this connection.
    var lastInsertRowID: Int64 {
        guard let db = handle else { return 0 }
        return sqlite3_last_insert_rowid(db)
    }

    var errorMessage: String {
        guard let db = handle else { return "connection closed" }
        return String(cString: sqlite3_errmsg(db))
    }

    /// Runs `body` in one IMMEDIATE transaction: all of it commits, or none of it.
    func transaction<T>(_ body: () throws(BackendError) -> T) throws(BackendError) -> T {
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
