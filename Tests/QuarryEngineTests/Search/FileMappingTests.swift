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

    /// What a merge does with the arrays it read in place (`Segment.releaseResidentPages`): their pages leave
    /// the process (the mapping's resident size in /proc/self/smaps falls), the rest of the file's stay (but
    /// for the 2 MiB huge page at either end, which the kernel unmaps whole), and the bytes read the same after.
    func testReleasingAPartUnmapsItsPagesOnly() throws {
        let length = 16 << 20
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 40_503 >> 9) }
        let mapping = try FileMapping(path: try temporaryFile(bytes))
        mapping.populate(mapping.raw)
        let all = try XCTUnwrap(residentKiB(mapping))
        XCTAssertGreaterThanOrEqual(all, 16 << 10)
        let part = UnsafeRawBufferPointer(rebasing: mapping.raw[(5 << 20) + 100..<(9 << 20) - 100])
        mapping.releaseResidentPages(of: part)
        let after = try XCTUnwrap(residentKiB(mapping))
        XCTAssertLessThanOrEqual(after, all - (4 << 10), "the 4 MiB of whole pages the part spans are gone")
        XCTAssertGreaterThanOrEqual(after, all - (8 << 10), "the rest stays")
        mapping.releaseResidentPages(of: UnsafeRawBufferPointer(start: nil, count: 0))
        bytes.withUnsafeBytes { mapping.releaseResidentPages(of: UnsafeRawBufferPointer(rebasing: $0[0..<4096])) }  // not in the file
        XCTAssertEqual(residentKiB(mapping), after)
        XCTAssertTrue(part.elementsEqual(bytes[(5 << 20) + 100..<(9 << 20) - 100]))
    }

    /// A merge's pass over its parts (`WalkWindow`): 32 walks, one a part, take turns reading a document's
    /// worth at a time, front to back. Once finished they hold nothing of what they passed: a piece mapped
    /// maps its first page's 64 KiB block whole (the page cache's pieces of a file written 64 KiB at a time,
    /// and fault-around), so a walk that let go up to its piece before mapping it kept the part of the block
    /// before it for good (43 MiB in a merge of 1M records, Benchmarks/RESULTS.md; about 1 MiB here).
    func testWalksOverPartsLetGoOfWhatTheyPassed() throws {
        let parts = 32, partSpan = 1 << 20, length = parts * partSpan
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 40_503 >> 9) }
        let mapping = try FileMapping(path: try temporaryFile(bytes, inPiecesOf: WalkWindow<UInt8>.faultAround))
        // Arrays inside an index file seldom start on a page, let alone a block.
        let count = partSpan - 4_099
        let arrays = (0..<parts).map { StoredArray<UInt8>(mapping: mapping, offset: $0 * partSpan + 4_099, count: count) }
        var windows = arrays.map { WalkWindow($0, among: parts) }
        var read = [Int](repeating: 0, count: parts), sum = 0, expected = 0
        while let p = (0..<parts).lazy.map({ (next() + $0) % parts }).first(where: { read[$0] < count }) {
            windows[p].reach(read[p])
            let end = min(read[p] + 300 + next() % 1_200, count)
            for i in stride(from: read[p], to: end, by: 256) {
                sum &+= Int(arrays[p][i])
                expected &+= Int(bytes[p * partSpan + 4_099 + i])
            }
            read[p] = end
        }
        XCTAssertEqual(sum, expected)
        for window in windows { window.finish() }
        XCTAssertLessThanOrEqual(try XCTUnwrap(residentKiB(mapping)), 512, "KiB left of \(length >> 20) MiB walked")
    }

    /// The resident KiB of `mapping`'s block in /proc/self/smaps.
    private func residentKiB(_ mapping: FileMapping) -> Int? {
        // /proc files report no size, so they are read to their end rather than by length.
        guard let base = mapping.raw.baseAddress, let file = FileHandle(forReadingAtPath: "/proc/self/smaps"),
              let data = try? file.readToEnd() else { return nil }
        let smaps = String(decoding: data, as: UTF8.self)
        let start = String(UInt(bitPattern: base), radix: 16)
        var inBlock = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), line[..<dash].allSatisfy(\.isHexDigit) {
                inBlock = line[..<dash].drop { $0 == "0" } == start.drop { $0 == "0" }
            } else if inBlock, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ")[1])
            }
        }
        return nil
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

    /// A file of `bytes`, written at once or in pieces of `piece` bytes, removed when the test ends.
    private func temporaryFile(_ bytes: [UInt8], inPiecesOf piece: Int? = nil) throws -> String {
        let path = NSTemporaryDirectory() + "mapping-\(UUID().uuidString)"
        addTeardownBlock { unlink(path) }
        guard let piece else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        for start in stride(from: 0, to: bytes.count, by: piece) {
            let end = min(start + piece, bytes.count)
            XCTAssertEqual(bytes[start..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, end - start)
        }
        return path
    }
}
