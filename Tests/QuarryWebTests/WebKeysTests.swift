import Glibc
import XCTest
@testable import QuarryWeb

/// keys.json: created once with mode 0600 and two different keys, read back the same, refused when others
/// can read it or when it is malformed.
final class WebKeysTests: XCTestCase {
    var directory = ""

    override func setUp() {
        var template = Array("/tmp/quarry-keys-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    override func tearDown() {
        unlink(directory + "/keys.json")
        rmdir(directory)
    }

    func testCreatedPrivateThenReadBack() throws {
        let created = try WebKeys.loadOrCreate(dataDirectory: directory)
        XCTAssertNotEqual(created.admin, created.search)
        XCTAssertEqual(created.admin.count, 64)
        var status = stat()
        XCTAssertEqual(stat(directory + "/keys.json", &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        let again = try WebKeys.loadOrCreate(dataDirectory: directory)
        XCTAssertEqual(again.admin, created.admin)
        XCTAssertEqual(again.search, created.search)
        XCTAssertEqual(again.access(for: created.admin), .admin)
        XCTAssertEqual(again.access(for: created.search), .searchOnly)
        XCTAssertNil(again.access(for: created.search + "x"))
        XCTAssertNil(again.access(for: ""))
    }

    func testOpenFileIsRefused() throws {
        _ = try WebKeys.loadOrCreate(dataDirectory: directory)
        chmod(directory + "/keys.json", 0o644)
        XCTAssertThrowsError(try WebKeys.loadOrCreate(dataDirectory: directory))
    }

    func testMalformedFileIsRefused() {
        let path = directory + "/keys.json"
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        _ = "{\"admin\": \"short\"}".withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
        XCTAssertThrowsError(try WebKeys.loadOrCreate(dataDirectory: directory))
    }

    func testFreshKeysDiffer() {
        XCTAssertNotEqual(WebKeys.newKey(), WebKeys.newKey())
    }
}
