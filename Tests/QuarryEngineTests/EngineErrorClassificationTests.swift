import CSQLite
import Glibc
@testable import QuarryEngine
import XCTest
import QuarrySearchContract

/// A full disk and an exhausted limit are told apart from a damaged store, so
/// the server can give each its own error code.
final class EngineErrorClassificationTests: XCTestCase {
    func testSystemErrors() {
        XCTAssertEqual(BackendError.system(ENOSPC, "write x"), .diskFull("write x: No space left on device"))
        XCTAssertEqual(BackendError.system(EDQUOT, "write x"), .diskFull("write x: Disk quota exceeded"))
        XCTAssertEqual(BackendError.system(EMFILE, "open x"), .resourceExhausted("open x: Too many open files"))
        XCTAssertEqual(BackendError.system(EIO, "read x"), .storage("read x: Input/output error"))
    }

    func testSQLiteResultCodes() {
        func kind(_ code: Int32, _ systemError: Int32 = 0) -> String {
            switch SQLiteConnection.failure(code: code, systemError: systemError, "r") {
            case .diskFull: "diskFull"
            case .resourceExhausted: "resourceExhausted"
            case .storage(let reason): reason.contains("damaged") ? "damaged" : "storage"
            default: "other"
            }
        }
        XCTAssertEqual(kind(SQLITE_FULL), "diskFull")
        XCTAssertEqual(kind(SQLITE_IOERR | (3 << 8), ENOSPC), "diskFull", "SQLITE_IOERR_WRITE after ENOSPC")
        XCTAssertEqual(kind(SQLITE_CANTOPEN, EMFILE), "resourceExhausted")
        XCTAssertEqual(kind(SQLITE_NOMEM), "resourceExhausted")
        XCTAssertEqual(kind(SQLITE_CORRUPT), "damaged")
        XCTAssertEqual(kind(SQLITE_NOTADB), "damaged")
        XCTAssertEqual(kind(SQLITE_CANTOPEN, ENOENT), "storage")
    }

    func testTheErrnoIsNamedInSQLiteFailures() {
        guard case .resourceExhausted(let reason) = SQLiteConnection.failure(code: SQLITE_CANTOPEN, systemError: EMFILE, "cannot open d") else {
            return XCTFail("expected resourceExhausted")
        }
        XCTAssertEqual(reason, "cannot open d (Too many open files)")
    }
}
