import Foundation
@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// A build from records of `MergePolicy.buildSpillFrom` documents or more (a write's large batch, an import,
/// a rebuild) writes its postings and token positions to unnamed files (`SpillFile`), as a large merge
/// does: the same bytes as a build on the heap, read in place, and nothing left in the directory.
final class SegmentBuildSpillTests: XCTestCase {
    private let settings: IndexSettings = {
        do {
            return try IndexSettings(json: [
                "searchableAttributes": ["title", "unordered(body)"],
                "customRanking": ["desc(pop)"],
                "attributesForFaceting": ["maker"],
            ])
        } catch {
            preconditionFailure("fixed settings: \(error)")
        }
    }()

    private func records(_ count: Int) -> [(DocID, JSONObject)] {
        let words = ["alpha", "beta", "gamma", "délta", "epsilon", "zeta", "théta", "kappa", "lambda", "über"]
        return (0..<count).map { i in
            let body = (0..<(i % 9 * 12)).map { words[($0 * 7 + i) % words.count] }.joined(separator: " ")
            return (DocID(i + 1), [
                "objectID": .string("r\(i)"),
                "title": .string("\(words[i % 10]) \(words[(i * 3) % 10]) item\(i)"),
                "body": .string(body),
                "pop": JSON((i * 37) % 101),
                "maker": .string(["Acmé", "Globex", "Initech"][i % 3]),
            ])
        }
    }

    private func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "build-spill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    func testALargeBuildReadsTheSameBytesFromItsFiles() throws {
        let directory = try temporaryDirectory()
        let input = records(SearchIndex.MergePolicy.standard.buildSpillFrom)
        let heap = SearchIndex.build(settings: settings, uniqueRecords: input)
        let spilled = SearchIndex.build(settings: settings, uniqueRecords: input, spillDirectory: directory)
        let a = try XCTUnwrap(spilled.segments.first), b = try XCTUnwrap(heap.segments.first)
        XCTAssertTrue(a.postings.bytes.isMapped)
        XCTAssertTrue(a.positions.bytes.isMapped)
        XCTAssertFalse(b.postings.bytes.isMapped)
        XCTAssertFalse(b.positions.bytes.isMapped)
        XCTAssertEqual(a.postings.bytes.array, b.postings.bytes.array)
        XCTAssertEqual(a.postings.starts.array, b.postings.starts.array)
        XCTAssertEqual(a.postings.offsets.array, b.postings.offsets.array)
        XCTAssertEqual(a.postings.lowestScores.array, b.postings.lowestScores.array)
        XCTAssertEqual(a.postings.scoreValues, b.postings.scoreValues)
        XCTAssertEqual(a.positions.bytes.array, b.positions.bytes.array)
        XCTAssertEqual(a.positions.starts.array, b.positions.starts.array)
        XCTAssertEqual(a.positions.terms.array, b.positions.terms.array)
        XCTAssertTrue(a.postings.isWellFormed(documents: a.count))
        XCTAssertTrue(a.positions.isWellFormed(termCount: a.dictionary.count))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])

        let source = InMemoryRecords(input)
        for query in ["alp", "délta item1", "über kap", "lambda", "item19"] {
            let parameters = try SearchParameters(json: ["query": .string(query), "hitsPerPage": 40, "facets": ["maker"]],
                                                  settings: settings)
            let x = try spilled.search(parameters, records: source), y = try heap.search(parameters, records: source)
            XCTAssertGreaterThan(x.nbHits, 0, query)
            XCTAssertEqual(x.nbHits, y.nbHits, query)
            XCTAssertEqual(x.hits.compactMap { $0["objectID"]?.stringValue }, y.hits.compactMap { $0["objectID"]?.stringValue }, query)
            XCTAssertEqual(x.facets, y.facets, query)
        }
    }

    /// Smaller builds, and builds given a directory that cannot hold a file, stay on the heap.
    func testSmallBuildsAndUnusableDirectoriesStayOnTheHeap() throws {
        let directory = try temporaryDirectory()
        let limit = SearchIndex.MergePolicy.standard.buildSpillFrom
        let below = SearchIndex.build(settings: settings, uniqueRecords: records(limit - 1), spillDirectory: directory)
        XCTAssertFalse(try XCTUnwrap(below.segments.first).postings.bytes.isMapped, "\(limit - 1) documents")
        XCTAssertFalse(try XCTUnwrap(below.segments.first).positions.bytes.isMapped)

        let input = records(limit)
        let nowhere = SearchIndex.build(settings: settings, uniqueRecords: input, spillDirectory: directory + "/missing")
        let heap = SearchIndex.build(settings: settings, uniqueRecords: input)
        let a = try XCTUnwrap(nowhere.segments.first), b = try XCTUnwrap(heap.segments.first)
        XCTAssertFalse(a.postings.bytes.isMapped)
        XCTAssertFalse(a.positions.bytes.isMapped)
        XCTAssertEqual(a.postings.bytes.array, b.postings.bytes.array)
        XCTAssertEqual(a.positions.bytes.array, b.positions.bytes.array)
    }
}
