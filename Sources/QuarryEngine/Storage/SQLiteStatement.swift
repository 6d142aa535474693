import CSQLite
import QuarrySearchContract

/// A prepared statement: bind, step, read columns, reset for reuse.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private unowned let connection: SQLiteConnection

    /// SQLITE_TRANSIENT (a C macro Swift cannot import): SQLite copies the bytes.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
    }

    func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(statement, index, value, -1, Self.transient)
    }

    func bind(_ index: Int32, utf8 bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            // An empty array may have no base address; SQLite needs a pointer for "".
            guard let base = raw.baseAddress, raw.count > 0 else {
                sqlite3_bind_text(statement, index, "", 0, Self.transient)
                return
            }
            sqlite3_bind_text(statement, index, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), Self.transient)
        }
    }

    func bind(_ index: Int32, blob bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { raw in
            sqlite3_bind_blob(statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), Self.transient)
        }
    }

    /// Steps once: `true` when a row is available, `false` when done.
    func step() throws(BackendError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.failure(code: code, connection.errorMessage)
        }
    }

    /// Steps to completion, discarding rows, then resets.
    func run() throws(BackendError) {
        defer { reset() }
        while try step() {}
    }

    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func isBlob(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_BLOB }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: text)
    }

    /// The column's text bytes, valid only inside `body` (no copy).
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(BackendError) -> T) throws(BackendError) -> T {
        let base = sqlite3_column_text(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        return try body(UnsafeBufferPointer(start: base, count: base == nil ? 0 : count))
    }

    /// The column's blob bytes, valid only inside `body` (no copy).
    func withBlob<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(BackendError) -> T) throws(BackendError) -> T {
        let base = sqlite3_column_blob(statement, column)?.assumingMemoryBound(to: UInt8.self)
        let count = Int(sqlite3_column_bytes(statement, column))
        return try body(UnsafeBufferPointer(start: base, count: base == nil ? 0 : count))
    }
}
