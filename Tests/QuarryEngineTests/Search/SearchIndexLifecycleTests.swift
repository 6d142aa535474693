import Foundation
@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// A snapshot's life:
/// 1. `updating()` (upserts, replacements, deletions, many small batches) answers exactly as `build()` on the
///    same final records, for hits, order and counts, also after `compacted()`.
/// 2. `write`/`read` round-trips (same answers, same generation); a save's read-back shares the arrays it
///    wrote, and a changed byte in one is still refused.
/// 3. A missing, truncated, bit-flipped, other-version or other-settings file is refused with its reason.
/// 4. Segments saved while writes went on are served from the file in the newest snapshot (`adopting`).
final class SearchIndexLifecycleTests: XCTestCase {
    private let settings = IndexSettings.with {
        $0.searchableAttributes = [SearchableAttribute(paths: ["name"]), SearchableAttribute(paths: ["tags"])]
        $0.customRanking = [CustomRankingCriterion(attribute: "pop", ascending: false)]
    }

    private func record(_ i: Int, generation: Int = 0) -> JSONObject {
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa"]
        return [
            "objectID": .string("r\(i)"),
            "name": .string("\(words[i % 8]) \(words[(i * 3 + generation) % 8]) item\(i)"),
            "tags": .array([.string(words[(i + generation) % 8])]),
            "pop": JSON((i * 37 + generation) % 101),
        ]
    }

    private let queries = ["", "a", "al", "alpha", "alpah", "beta gam", "item1", "kappa t", "zeta alpha", "ep"]

    private func assertSameAnswers(_ a: SearchIndex, _ b: SearchIndex, records: [(DocID, JSONObject)],
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(a.documentCount, b.documentCount, file: file, line: line)
        let source = InMemoryRecords(records)
        for query in queries {
            let p = try SearchParameters(json: ["query": .string(query), "hitsPerPage": 30, "getRankingInfo": true], settings: settings)
            let ra = try a.search(p, records: source), rb = try b.search(p, records: source)
            XCTAssertEqual(ra.nbHits, rb.nbHits, "nbHits for \(query)", file: file, line: line)
            XCTAssertEqual(ra.hits.map { $0["objectID"] }, rb.hits.map { $0["objectID"] }, "order for \(query)", file: file, line: line)
        }
    }

    func testUpdatingMatchesBuild() throws {
        var current: [DocID: JSONObject] = [:]
        for i in 0..<300 { current[DocID(i)] = record(i) }
        var index = SearchIndex.build(settings: settings, records: current.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        for batch in 0..<40 {
            var upserts: [(DocID, JSONObject)] = []
            var deletions: [DocID] = []
            for k in 0..<7 {
                let id = DocID((batch * 53 + k * 17) % 400)
                if k == 3 { deletions.append(id); current[id] = nil } else {
                    let r = record(Int(id), generation: batch + 1)
                    upserts.append((id, r))
                    current[id] = r
                }
            }
            // A tiny merge policy keeps several segments alive, so cross-segment ranking is exercised.
            index = index.updating(upserts: upserts, deletions: deletions, policy: .init(eagerLimit: 40, floor: 0))
        }
        XCTAssertGreaterThan(index.segments.count, 2)
        let records = current.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let rebuilt = SearchIndex.build(settings: settings, records: records)
        try assertSameAnswers(index, rebuilt, records: records)
        try assertSameAnswers(index.compacted(), rebuilt, records: records)
    }

    func testUpdatingLeavesTheOldSnapshotUntouched() throws {
        let records = (0..<10).map { (DocID($0), record($0)) }
        let old = SearchIndex.build(settings: settings, records: records)
        let unicorn: JSONObject = ["objectID": "x", "name": "unicorn"]
        let new = old.updating(upserts: [(DocID(20), unicorn)], deletions: [0, 1])
        XCTAssertEqual(old.documentCount, 10)
        XCTAssertEqual(new.documentCount, 9)
        let p = try SearchParameters(json: ["query": "unicorn"], settings: settings)
        let source = InMemoryRecords(records + [(DocID(20), unicorn)])
        XCTAssertEqual(try old.search(p, records: source).nbHits, 0)
        XCTAssertEqual(try new.search(p, records: source).nbHits, 1)
    }

    private func temporaryPath() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-search-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.appendingPathComponent("index.qsi").path
    }

    func testWriteReadRoundTrip() throws {
        let records = (0..<200).map { (DocID($0), record($0)) }
        let index = SearchIndex.build(settings: settings, records: records)
            .updating(upserts: [(DocID(500), record(500))], deletions: [3], policy: .init(eagerLimit: 0, floor: 0))
        XCTAssertEqual(index.segments.count, 2)
        let path = temporaryPath()
        try index.write(to: path, generation: 42)
        let (loaded, generation) = try SearchIndex.read(from: path, settings: settings)
        XCTAssertEqual(generation, 42)
        try assertSameAnswers(index, loaded, records: records + [(DocID(500), record(500))])
    }

    func testASavesReadBackSharesTheArraysItWrote() throws {
        let records = (0..<200).map { (DocID($0), record($0)) }
        var faceted = settings
        faceted.attributesForFaceting = [FacetAttribute(attribute: "tags"), FacetAttribute(attribute: "pop")]
        let index = SearchIndex.build(settings: faceted, records: records)
        let path = temporaryPath()
        let shelf = ArrayShelf()
        try index.write(to: path, generation: 5, shelf: shelf)
        let (loaded, _) = try SearchIndex.read(from: path, settings: faceted, shelf: shelf)
        try assertSameAnswers(index, loaded, records: records)
        func address<T>(_ array: [T]) -> UnsafeRawPointer? { array.withUnsafeBytes { $0.baseAddress } }
        let saved = index.segments[0], read = loaded.segments[0]
        XCTAssertEqual(address(read.postings.scoreValues), address(saved.postings.scoreValues), "shared, not copied")
        // What is read in place goes from the heap with the segment saved: a stream of batches kept every part's
        // dictionary, postings offsets and token positions' starts on it (39 parts after 1M records by batches of
        // 5,000: 20.5, 22.6 and 22.2 MiB, Benchmarks/RESULTS.md).
        XCTAssertTrue(read.dictionary.bytes.isMapped && read.postings.offsets.isMapped && read.positions.starts.isMapped)
        XCTAssertEqual(loaded.memory().structures.first { $0.name == "dictionary" }?.bytes, 0)
        // Facet columns take their texts and lookups from the saved ones, and read their documents in place.
        XCTAssertEqual(read.facets.columns.map(\.name), saved.facets.columns.map(\.name))
        XCTAssertEqual(read.facets.columns.filter { !$0.values.isEmpty }.map(\.name), ["tags", "pop"])
        for (savedColumn, readColumn) in zip(saved.facets.columns, read.facets.columns) where !savedColumn.values.isEmpty {
            XCTAssertEqual(address(readColumn.values), address(savedColumn.values))
            XCTAssertEqual(address(readColumn.alphaRanks), address(savedColumn.alphaRanks))
            XCTAssertEqual(address(readColumn.valueBits), address(savedColumn.valueBits))
            XCTAssertTrue(readColumn.singles.isMapped || readColumn.ids.isMapped)
            XCTAssertEqual(readColumn.valueDocuments.starts.array, savedColumn.valueDocuments.starts.array)
            XCTAssertTrue(readColumn.valueDocuments.starts.isMapped && readColumn.valueDocuments.offsets.isMapped)
        }
        let copied = try SearchIndex.read(from: path, settings: faceted).index.segments[0]
        XCTAssertNotEqual(address(copied.postings.scoreValues), address(saved.postings.scoreValues))
        XCTAssertNotEqual(address(copied.facets.columns[0].alphaRanks), address(saved.facets.columns[0].alphaRanks))

        // The checksum still covers every byte: a term changed on disk in a shared array is refused.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let term = try XCTUnwrap(bytes.range(of: Data("epsilon".utf8)))
        bytes[term.lowerBound] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: path))
        let again = ArrayShelf()
        try index.write(to: path + ".2", generation: 5, shelf: again)
        try FileManager.default.removeItem(atPath: path + ".2")
        XCTAssertThrowsError(try SearchIndex.read(from: path, settings: faceted, shelf: again)) { error in
            XCTAssertTrue("\(error)".contains("checksum"), "\(error)")
        }
    }

    func testReopenedSegmentsReadTheirLargeArraysFromTheFileEvenOnceItIsReplaced() throws {
        let records = (0..<300).map { (DocID($0), record($0)) }
        let index = SearchIndex.build(settings: settings, records: records)
        let path = temporaryPath()
        try index.write(to: path, generation: 7)
        let (loaded, _) = try SearchIndex.read(from: path, settings: settings)
        let segment = try XCTUnwrap(loaded.segments.first)
        XCTAssertTrue(segment.postings.bytes.isMapped && segment.positions.bytes.isMapped)
        XCTAssertTrue(segment.dictionary.bytes.isMapped && segment.dictionary.offsets.isMapped)
        XCTAssertTrue(segment.postings.offsets.isMapped && segment.postings.starts.isMapped && segment.postings.lowestScores.isMapped)
        XCTAssertTrue(segment.positions.starts.isMapped && segment.positions.terms.isMapped)
        XCTAssertEqual(segment.postings.bytes.array, index.segments[0].postings.bytes.array)
        let memory = loaded.memory()
        XCTAssertEqual(memory.mapped, segment.mappedBytes)
        XCTAssertGreaterThan(memory.mapped, segment.postings.bytes.count + segment.positions.bytes.count + segment.lookup.count * 4)
        XCTAssertFalse(segment.facets.numeric.isEmpty)
        XCTAssertTrue(segment.sortValues.isMapped && segment.facets.numeric.allSatisfy { $0.numbers.isMapped })
        XCTAssertLessThan(memory.total, index.memory().total - memory.mapped / 2, "mapped bytes are not counted as heap")
        // Saving replaces the file by rename and deleting an index unlinks it: the mapping keeps the old bytes.
        let other = SearchIndex.build(settings: settings, records: (0..<40).map { (DocID($0), record($0, generation: 3)) })
        try other.write(to: path, generation: 8)
        try assertSameAnswers(index, loaded, records: records)
        try FileManager.default.removeItem(atPath: path)
        try assertSameAnswers(index, loaded, records: records)
    }

    func testSavedSegmentsAreAdoptedByTheSnapshotWritesMadeMeanwhile() throws {
        var records = (0..<300).map { (DocID($0), record($0)) }
        let tiny = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0)
        let saved = SearchIndex.build(settings: settings, records: records)
            .updating(upserts: (300..<340).map { (DocID($0), record($0)) }, deletions: [], policy: tiny)
        XCTAssertEqual(saved.segments.count, 2)
        let path = temporaryPath()
        try saved.write(to: path, generation: 1)
        let (read, _) = try SearchIndex.read(from: path, settings: settings)
        // Meanwhile a write replaced one saved document, deleted another and appended a segment.
        let replacement = (DocID(5), record(5, generation: 3))
        let newest = saved.updating(upserts: [replacement] + (340..<360).map { (DocID($0), record($0)) },
                                    deletions: [310], policy: tiny)
        records = records.filter { $0.0 != 5 } + [replacement] + (300..<360).filter { $0 != 310 }.map { (DocID($0), record($0)) }

        let adopted = try XCTUnwrap(newest.adopting(read, savedFrom: saved))
        XCTAssertEqual(adopted.segments.count, 3)
        XCTAssertTrue(adopted.segments[0].postings.bytes.isMapped && adopted.segments[1].postings.bytes.isMapped)
        XCTAssertFalse(adopted.segments[2].postings.bytes.isMapped, "written after the save: still on the heap")
        XCTAssertEqual(adopted.dead.map(\.count), newest.dead.map(\.count), "deletions made since the save stay marked")
        XCTAssertEqual(adopted.documentCount, 359)
        try assertSameAnswers(adopted, newest, records: records)

        // A compaction replaced every saved segment: nothing left to adopt.
        XCTAssertNil(newest.compacted().adopting(read, savedFrom: saved))
    }

    func testDamagedFilesAreRefused() throws {
        let index = SearchIndex.build(settings: settings, records: (0..<50).map { (DocID($0), record($0)) })
        let path = temporaryPath()
        XCTAssertThrowsError(try SearchIndex.read(from: path, settings: settings)) {
            XCTAssertEqual($0 as? DerivedIndexError, .missing)
        }
        try index.write(to: path, generation: 1)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))

        try good.prefix(good.count - 100).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SearchIndex.read(from: path, settings: settings)) {
            guard case .corrupt = $0 as? DerivedIndexError else { return XCTFail("truncation: \($0)") }
        }
        var flipped = good
        flipped[good.count / 2] ^= 0x40
        try flipped.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SearchIndex.read(from: path, settings: settings)) {
            XCTAssertEqual($0 as? DerivedIndexError, .corrupt("checksum mismatch"))
        }
        var version = good
        version[8] = 99
        try version.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SearchIndex.read(from: path, settings: settings)) {
            XCTAssertEqual($0 as? DerivedIndexError, .versionMismatch(found: 99, expected: SearchIndex.formatVersion))
        }
        try good.write(to: URL(fileURLWithPath: path))
        var other = settings
        other.searchableAttributes = [SearchableAttribute(paths: ["tags"])]
        XCTAssertThrowsError(try SearchIndex.read(from: path, settings: other)) {
            XCTAssertEqual($0 as? DerivedIndexError, .settingsMismatch)
        }
        XCTAssertNoThrow(try SearchIndex.read(from: path, settings: settings))
    }
}
