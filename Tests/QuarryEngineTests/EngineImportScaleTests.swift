import QuarryJSON
import QuarrySync
import XCTest
@testable import QuarryEngine

#if canImport(Glibc)
import Glibc
#endif

/// A measurement, not a check: skipped unless QUARRY_IMPORT_SCALE=<records>
/// is set (run it with `swift test -c release --filter EngineImportScaleTests`).
/// Prints the import's duration and peak memory while the records stream in.
final class EngineImportScaleTests: XCTestCase {
    func testImportAtScale() throws {
        guard let count = ProcessInfoLite.environment("QUARRY_IMPORT_SCALE").flatMap(Int.init) else {
            throw XCTSkip("set QUARRY_IMPORT_SCALE=<records> to measure")
        }
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.json"
        guard let file = fopen(path, "wb") else { return XCTFail("cannot write \(path)") }
        var writer = JSONWriter(reservingCapacity: 1 << 20)
        writer.writeRaw("[")
        for n in 0..<count {
            if n > 0 { writer.writeRaw(",\n") }
            writer.write([
                "objectID": .string("r\(n)"), "name": .string("record number \(n)"), "price": JSON(n % 1000),
                "tags": ["alpha", .string("t\(n % 97)")], "text": "some words to index, with \"quotes\" and [brackets]",
            ])
            if writer.bytes.count > 1 << 20 || n == count - 1 {
                if n == count - 1 { writer.writeRaw("]") }
                _ = fwrite(writer.bytes, 1, writer.bytes.count, file)
                writer = JSONWriter(reservingCapacity: 1 << 20)
            }
        }
        fclose(file)
        let baseline = Self.peakRSSMB()
        let peakWhileStoring = LockedMax()
        let engine = try Engine(directory: directory.path + "/data", log: { _ in })
        let clock = ContinuousClock()
        let start = clock.now
        let storedAt = Locked(start)
        let receipt = try engine.importRecords(index: "scale", from: path, progress: { _ in
            peakWhileStoring.record(Self.peakRSSMB())
            storedAt.withLock { $0 = clock.now }
        })
        XCTAssertEqual(receipt.imported, count)
        print("import of \(count) records: \(receipt.durationMS) ms in all, of which reading and storing "
            + "\(storedAt.withLock { $0 } - start); peak RSS before \(baseline) MB, "
            + "while storing \(peakWhileStoring.value) MB, after the index build \(Self.peakRSSMB()) MB")
    }

    static func peakRSSMB() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss / 1024
    }
}

final class LockedMax: Sendable {
    private let current = Locked(0)
    var value: Int { current.withLock { $0 } }
    func record(_ value: Int) { current.withLock { $0 = max($0, value) } }
}

/// Keeps this file off Foundation.
enum ProcessInfoLite {
    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
