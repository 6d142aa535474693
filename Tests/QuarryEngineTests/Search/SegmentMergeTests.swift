import Foundation
@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// A merge renumbers the parts' postings and recodes their tokens instead of laying the segment out from
/// tokens (`SegmentMerge`): what it makes is the segment a build from the same live records lays out, array
/// for array, but for the terms only deleted documents held, which the merged dictionary keeps with no
/// postings. Pinned over parts with replaced and deleted documents, terms shared and not, several
/// attributes (unordered, typo tolerance disabled, arrays, long text), non-ASCII words and a custom ranking.
final class SegmentMergeTests: XCTestCase {
    private func settings() throws -> IndexSettings {
        try IndexSettings(json: [
            "searchableAttributes": ["title", "unordered(body)", "tags", "code"],
            "disableTypoToleranceOnAttributes": ["code"],
            "customRanking": ["desc(pop)"],
            "attributesForFaceting": ["tags", "maker"],
        ])
    }

    private func record(_ i: Int, generation: Int = 0) -> JSONObject {
        let words = ["alpha", "beta", "gamma", "délta", "epsilon", "zeta", "théta", "kappa", "lambda", "über"]
        let body = (0..<(i % 7 * 40)).map { words[($0 * 7 + i + generation) % words.count] }.joined(separator: " ")
        return [
            "objectID": .string("r\(i)"),
            "title": .string("\(words[(i + generation) % 10]) \(words[(i * 3) % 10]) item\(i) g\(generation)"),
            "body": .string(body),
            "tags": .array([.string(words[i % 10]), .string("tag\(i % 13)")]),
            "code": .string("c\(i % 17)x"),
            "pop": JSON((i * 37 + generation) % 101),
            "maker": .string(["Acmé", "Globex", "Initech"][(i + generation) % 3]),
            "sizes": .array((0..<(i % 3)).map { .double(Double(i + $0) + 0.5) }),
            "_geoloc": i % 4 == 0 ? ["lat": .double(Double(i) / 10), "lng": .double(Double(generation))] : .null,
        ]
    }

    func testMergedSegmentIsTheSegmentABuildOfTheLiveRecordsLaysOut() throws {
        let settings = try settings()
        var live: [DocID: JSONObject] = [:]
        for i in 0..<120 { live[DocID(i)] = record(i) }
        var index = SearchIndex.build(settings: settings, records: live.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let tiny = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0)
        for batch in 1...5 {
            var upserts: [(DocID, JSONObject)] = [], deletions: [DocID] = []
            for k in 0..<30 {
                let id = DocID((batch * 41 + k * 13) % 200)
                if k % 5 == 0 {
                    deletions.append(id)
                    live[id] = nil
                } else {
                    let r = record(Int(id), generation: batch)
                    upserts.append((id, r))
                    live[id] = r
                }
            }
            index = index.updating(upserts: upserts, deletions: deletions, policy: tiny)
        }
        XCTAssertEqual(index.segments.count, 6)
        XCTAssertGreaterThan(index.dead.reduce(0) { $0 + $1.count }, 50)

        let sideBySide = try XCTUnwrap(index.compacted().segments.first)
        // The same merge one step at a time, as a merge of more than `SegmentMerge.sideBySideUpTo` documents runs.
        let stepByStep = SegmentMerge.merge(index.segments, dead: index.dead, order: index.order,
                                            facets: FacetLayout(settings: settings), sideBySideUpTo: 0)
        let built = try XCTUnwrap(SearchIndex.build(settings: settings, records: live.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            .segments.first)
        for merged in [sideBySide, stepByStep] {
            XCTAssertEqual(merged.docIDs.array, built.docIDs.array)
            XCTAssertEqual(merged.sortValues.count, built.sortValues.count)
            XCTAssertTrue(zip(merged.sortValues, built.sortValues).allSatisfy { $0 == $1 })
            XCTAssertEqual(merged.sortRanks, built.sortRanks)
            XCTAssertEqual(merged.lookup.array, built.lookup.array)

            // Every term of the build, with the same postings; the merge's other terms (held only by deleted documents) have none.
            var onlyDeleted = 0
            for term in 0..<merged.dictionary.count {
                let word = merged.dictionary.term(term)
                guard let other = built.dictionary.find(word) else {
                    XCTAssertEqual(merged.postings.count(of: term), 0, "\(String(decoding: word, as: UTF8.self)) has no live document")
                    XCTAssertEqual(merged.postings.lowestScores[term], .max)
                    onlyDeleted += 1
                    continue
                }
                var a: [[Int]] = [], b: [[Int]] = []
                merged.postings.forEach(term) { a.append([$0, Int($1)]) }
                built.postings.forEach(other) { b.append([$0, Int($1)]) }
                XCTAssertEqual(a, b, "postings of \(String(decoding: word, as: UTF8.self))")
                XCTAssertEqual(merged.postings.lowestScores[term], built.postings.lowestScores[other])
            }
            XCTAssertGreaterThan(onlyDeleted, 0, "some terms were held only by deleted documents")
            XCTAssertEqual(merged.dictionary.count - onlyDeleted, built.dictionary.count)
            XCTAssertEqual(merged.postings.bytes.array, built.postings.bytes.array, "same gaps under the same score codes")
            XCTAssertEqual(merged.postings.scoreValues, built.postings.scoreValues)

            // Each document's tokens, by word and location; coded alike (the build's terms come first by frequency).
            XCTAssertEqual(merged.positions.tokenCount, built.positions.tokenCount)
            for ordinal in 0..<merged.count {
                var a: [String] = [], b: [String] = []
                merged.positions.forEachToken(of: ordinal) { a.append("\(merged.dictionary.term($0)) \($1)") }
                built.positions.forEachToken(of: ordinal) { b.append("\(built.dictionary.term($0)) \($1)") }
                XCTAssertEqual(a, b, "tokens of ordinal \(ordinal)")
            }
            XCTAssertEqual(merged.positions.starts.array, built.positions.starts.array)
            XCTAssertEqual(merged.positions.bytes.array, built.positions.bytes.array)
            XCTAssertTrue(merged.positions.isWellFormed(termCount: merged.dictionary.count))
            XCTAssertTrue(merged.postings.isWellFormed(documents: merged.count))

            // Facets: each document's values by text, its numbers and its points, as a build lays them out.
            for name in ["tags", "maker"] {
                let a = try XCTUnwrap(merged.facets.column(name)), b = try XCTUnwrap(built.facets.column(name))
                XCTAssertEqual(a.isSingleValued, b.isSingleValued, name)
                for ordinal in 0..<merged.count {
                    var x: [String] = [], y: [String] = []
                    a.forEachValue(of: ordinal) { x.append(a.values[$0]) }
                    b.forEachValue(of: ordinal) { y.append(b.values[$0]) }
                    XCTAssertEqual(x, y, "\(name) of ordinal \(ordinal)")
                }
            }
            XCTAssertEqual(merged.facets.numeric.map(\.path).sorted(), built.facets.numeric.map(\.path).sorted())
            for column in built.facets.numeric {
                let other = try XCTUnwrap(merged.facets.numericColumn(column.path))
                XCTAssertEqual(other.isSingleValued, column.isSingleValued, column.path)
                for ordinal in 0..<merged.count {
                    var x: [Double] = [], y: [Double] = []
                    for value in [1.0, 2.0, 50.5, 100.5] {
                        if other.any(ordinal, { $0 == value || $0 < value }) { x.append(value) }
                        if column.any(ordinal, { $0 == value || $0 < value }) { y.append(value) }
                    }
                    XCTAssertEqual(x, y, "\(column.path) of ordinal \(ordinal)")
                }
            }
            XCTAssertGreaterThan(built.facets.geo.latitudes.count, 0)
            for ordinal in 0..<merged.count {
                let a = merged.facets.geo, b = built.facets.geo
                XCTAssertEqual(a.points(of: ordinal).map { a.latitudes[$0] }, b.points(of: ordinal).map { b.latitudes[$0] })
                XCTAssertEqual(a.points(of: ordinal).map { a.longitudes[$0] }, b.points(of: ordinal).map { b.longitudes[$0] })
            }
        }
    }

    /// A large merge writes its postings and token positions to unnamed files (`SpillFile`) and reads them in
    /// place: the same bytes as on the heap, and nothing left in the directory.
    func testASpilledMergeReadsTheSameBytesFromItsFiles() throws {
        let settings = try settings()
        var live: [DocID: JSONObject] = [:]
        for i in 0..<150 { live[DocID(i)] = record(i) }
        var index = SearchIndex.build(settings: settings, records: live.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let tiny = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0)
        for batch in 1...4 {
            let upserts = (0..<40).map { k in (DocID((batch * 37 + k * 11) % 220), record((batch * 37 + k * 11) % 220, generation: batch)) }
            for (id, r) in upserts { live[id] = r }
            live[DocID(batch * 3)] = nil
            index = index.updating(upserts: upserts, deletions: [DocID(batch * 3)], policy: tiny)
        }
        let directory = NSTemporaryDirectory() + "spill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let range = 0..<index.segments.count
        let heap = index.merge(index.segments[range], index.dead[range])
        let spilled = index.merge(index.segments[range], index.dead[range], spillDirectory: directory)
        XCTAssertFalse(heap.postings.bytes.isMapped)
        XCTAssertTrue(spilled.postings.bytes.isMapped)
        XCTAssertTrue(spilled.positions.bytes.isMapped)
        XCTAssertEqual(spilled.postings.bytes.array, heap.postings.bytes.array)
        XCTAssertEqual(spilled.postings.offsets.array, heap.postings.offsets.array)
        XCTAssertEqual(spilled.postings.starts.array, heap.postings.starts.array)
        XCTAssertEqual(spilled.positions.bytes.array, heap.positions.bytes.array)
        XCTAssertEqual(spilled.positions.starts.array, heap.positions.starts.array)
        XCTAssertEqual(spilled.docIDs.array, heap.docIDs.array)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        let searched = SearchIndex(settings: index.settings, layout: index.layout, order: index.order, segments: [spilled],
                                   dead: [Bitset(capacity: spilled.count)])
        let onHeap = SearchIndex(settings: index.settings, layout: index.layout, order: index.order, segments: [heap],
                                 dead: [Bitset(capacity: heap.count)])
        let records = InMemoryRecords(live.map { ($0.key, $0.value) })
        for query in ["alp", "delta", "item1", "über kap", "tag1"] {
            let parameters = try SearchParameters(json: ["query": .string(query), "hitsPerPage": 50], settings: settings)
            let a = try searched.search(parameters, records: records), b = try onHeap.search(parameters, records: records)
            XCTAssertGreaterThan(a.nbHits, 0, query)
            XCTAssertEqual(a.nbHits, b.nbHits, query)
            XCTAssertEqual(a.hits.compactMap { $0["objectID"]?.stringValue }, b.hits.compactMap { $0["objectID"]?.stringValue }, query)
        }
        // Below `spillFrom` live documents, a merge stays on the heap whatever directory it is given.
        XCTAssertFalse(index.merging(range, spillDirectory: directory).segment.postings.bytes.isMapped)
        // A directory that cannot hold one leaves the merge on the heap.
        let nowhere = index.merge(index.segments[range], index.dead[range], spillDirectory: directory + "/missing")
        XCTAssertFalse(nowhere.postings.bytes.isMapped)
        XCTAssertEqual(nowhere.postings.bytes.array, heap.postings.bytes.array)
    }

    /// The merges off the write path spill from `MergePolicy.spillFrom` live documents: all but the first tier's.
    func testMergesSpillFromTheSecondTier() throws {
        let settings = try IndexSettings(json: ["searchableAttributes": ["title"]])
        let limit = SearchIndex.MergePolicy.standard.spillFrom
        func records(_ ids: Range<Int>) -> [(DocID, JSONObject)] {
            ids.map { (DocID($0), ["objectID": .string("r\($0)"), "title": .string("word\($0 % 97) item\($0)")]) }
        }
        let directory = NSTemporaryDirectory() + "spill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = SearchIndex.build(settings: settings, records: records(0..<limit / 2))
        let below = base.updating(upserts: records(limit / 2..<limit - 1), deletions: [], policy: SearchIndex.MergePolicy(eagerLimit: 0))
        XCTAssertEqual(below.segments.count, 2)
        XCTAssertFalse(below.merging(0..<2, spillDirectory: directory).segment.positions.bytes.isMapped, "\(limit - 1) documents")
        let at = base.updating(upserts: records(limit / 2..<limit), deletions: [], policy: SearchIndex.MergePolicy(eagerLimit: 0))
        let merged = at.merging(0..<2, spillDirectory: directory).segment
        XCTAssertTrue(merged.positions.bytes.isMapped, "\(limit) documents")
        XCTAssertTrue(merged.postings.bytes.isMapped)
        XCTAssertEqual(merged.count, limit)
    }
}
