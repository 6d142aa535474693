@testable import QuarryEngine
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Saving streams the index file: the checksum over pieces equals the one over the whole file, however
/// the bytes are cut, and the streamed file is byte for byte the counted layout.
final class BinaryWriterTests: XCTestCase {
    func testRunningChecksumEqualsTheWholeOneForAnyCut() {
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for length in [0, 1, 7, 31, 32, 33, 100, 4_096, 10_007] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            bytes.withUnsafeBytes { raw in
                let whole = Checksum.of(raw)
                for _ in 0..<20 {
                    var running = Checksum.Running(length: length)
                    var at = 0
                    while at < length {
                        let piece = min(length - at, Int(next() % 70))
                        running.add(UnsafeRawBufferPointer(rebasing: raw[at..<at + piece]))
                        at += piece
                    }
                    XCTAssertEqual(running.finish(), whole, "length \(length)")
                }
                var flipped = bytes
                if length > 0 {
                    flipped[length / 2] ^= 1
                    XCTAssertNotEqual(flipped.withUnsafeBytes { Checksum.of($0) }, whole)
                }
            }
        }
    }

    func testStreamedBytesAreTheCountedOnesAndAWriteFailureIsReported() throws {
        let big = [UInt32](0..<600_000)  // larger than the writer's buffer
        var counting = BinaryWriter()
        counting.write(42)
        counting.write(array: [UInt8](repeating: 9, count: 5))
        counting.write(array: big)
        counting.write(array: StoredArray([UInt16](repeating: 3, count: 3)))
        let path = NSTemporaryDirectory() + "writer-\(UUID().uuidString)"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var writer = BinaryWriter(fd: fd, checksummedLength: counting.count)
        writer.write(42)
        writer.write(array: [UInt8](repeating: 9, count: 5))
        writer.write(array: big)
        writer.write(array: StoredArray([UInt16](repeating: 3, count: 3)))
        let checksum = writer.seal()
        try writer.finish()
        close(fd)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(data.count, counting.count)
        XCTAssertEqual(counting.count, 8 + 16 + 8 + 600_000 * 4 + 16)
        XCTAssertEqual(data.withUnsafeBytes { Checksum.of($0) }, checksum)

        var failing = BinaryWriter(fd: -1, checksummedLength: 8)
        failing.write(1)
        XCTAssertThrowsError(try failing.finish())
    }
}
