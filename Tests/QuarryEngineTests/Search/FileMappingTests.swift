import Foundation
@testable import QuarryEngine
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A mapped index file reads its bytes whether the page cache holds all of it, none of it (a cold
/// start: `FileMapping` first reads the missing pages with read-ahead off) or parts of it; its checksum,
/// read beside the mapping, is the one over the mapped bytes; a part mapped for a walk and let go reads the same.
final class FileMappingTests: XCTestCase {
    func testTheChecksumReadBesideTheMappingIsTheMappedBytesOne() throws {
        let length = 2 << 20 + 77
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 40_503 >> 7) }
        let path = try temporaryFile(bytes)
        let mapping = try FileMapping(path: path)
        for prefix in [0, 1, 31, 32, 33, 1 << 20, 1 << 20 + 5, length - 16, length] {
            XCTAssertEqual(mapping.checksum(length: prefix), Checksum.of(UnsafeRawBufferPointer(rebasing: mapping.raw[0..<prefix])),
                           "the first \(prefix) bytes")
        }
        XCTAssertNil(mapping.checksum(length: length + 1), "past the end of the file")
        let part = UnsafeRawBufferPointer(rebasing: mapping.raw[4_000..<(1 << 20) + 3])
        mapping.populate(part)
        XCTAssertTrue(part.elementsEqual(bytes[4_000..<(1 << 20) + 3]))
        mapping.releaseResidentPages()
        XCTAssertTrue(part.elementsEqual(bytes[4_000..<(1 << 20) + 3]))
        bytes.withUnsafeBytes { mapping.populate(UnsafeRawBufferPointer(rebasing: $0[0..<10])) }  // not in the file: nothing
    }

    func testAMappingReadsTheFileWhateverPartOfItIsCached() throws {
        let length = 3 << 20 + 123
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let path = try temporaryFile(bytes)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        XCTAssertEqual(fsync(fd), 0)
        for cached in [nil, 0..<0, (1 << 20)..<(2 << 20) + 5] as [Range<Int>?] {
            if let cached {
                // Clean pages are dropped; then only `cached` is read back in.
                _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
                var buffer = [UInt8](repeating: 0, count: cached.count)
                XCTAssertEqual(pread(fd, &buffer, cached.count, off_t(cached.lowerBound)), cached.count)
            }
            let mapping = try FileMapping(path: path)
            XCTAssertEqual(mapping.raw.count, length)
            XCTAssertTrue(mapping.raw.elementsEqual(bytes), "cached: \(String(describing: cached))")
            mapping.releaseResidentPages()
            XCTAssertEqual(mapping.raw[length - 1], bytes[length - 1])
        }
    }

    /// A file of `bytes`, removed when the test ends.
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "mapping-\(UUID().uuidString)"
        addTeardownBlock { unlink(path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
