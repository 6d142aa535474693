import Glibc
import XCTest
@testable import QuarryTransport

final class SocketPathTests: XCTestCase {
    func testExplicitSocketWins() {
        let result = SocketPath.default(environment: ["QUARRY_SOCK": "/x/y.sock", "XDG_RUNTIME_DIR": "/run/user/1"])
        XCTAssertEqual(result.path, "/x/y.sock")
        XCTAssertNil(result.warning)
    }

    func testRuntimeDirectory() throws {
        let runtime = try TemporaryDirectory()
        let result = SocketPath.default(environment: ["XDG_RUNTIME_DIR": runtime.path + "/"])
        XCTAssertEqual(result.path, runtime.path + "/quarry/quarry.sock")
        XCTAssertNil(result.warning)
    }

    func testMissingRuntimeDirectoryFallsBackWithWarning() {
        let result = SocketPath.default(environment: ["XDG_RUNTIME_DIR": "/nonexistent/run/user/1000", "TMPDIR": "/var/tmp"])
        XCTAssertEqual(result.path, "/var/tmp/quarry-\(getuid())/quarry.sock")
        XCTAssertEqual(result.warning?.contains("/nonexistent/run/user/1000"), true)
    }

    func testFallsBackToPrivateTmpDirectoryWithWarning() {
        let result = SocketPath.default(environment: ["TMPDIR": "/var/tmp"])
        XCTAssertEqual(result.path, "/var/tmp/quarry-\(getuid())/quarry.sock")
        XCTAssertNotNil(result.warning)
        XCTAssertEqual(SocketPath.default(environment: [:]).path, "/tmp/quarry-\(getuid())/quarry.sock")
    }

    func testPrepareDirectoryCreates0700AndRefusesGroupWritable() throws {
        let base = try TemporaryDirectory()
        let directory = base.path + "/quarry"
        try SocketPath.prepareDirectory(directory, requirePrivate: true)
        var info = stat()
        XCTAssertEqual(stat(directory, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)

        chmod(directory, 0o770)
        XCTAssertThrowsError(try SocketPath.prepareDirectory(directory, requirePrivate: true)) { error in
            guard case TransportError.unsafeDirectory = error else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(try SocketPath.prepareDirectory(directory, requirePrivate: false))
    }
}
