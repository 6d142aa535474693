import QuarryJSON
import XCTest
@testable import QuarryEngine
@testable import QuarrySearchContract

/// `browse` and `getObjects`:
/// 1. browse returns every record once, in the order ties rank in (first added first), past `paginationLimitedTo`;
/// 2. with a query and filters it finds exactly what search counts, across segments and deletions;
/// 3. the cursor carries the parameters, page size and attributes, and is refused on another index or
///    beside new filtering parameters;
/// 4. writes during a browse follow the documented rule;
/// 5. cursors are base64url and a damaged one is refused by name.
final class EngineBrowseTests: EngineTestCase {

    func engine() throws -> Engine { try Engine(directory: directory.path, log: { _ in }) }

    private let colours = ["red", "green", "blue", "amber", "violet"]

    private func fill(_ engine: Engine, count: Int, batches: Int = 1) throws {
        let perBatch = (count + batches - 1) / batches
        for batch in 0..<batches {
            let range = (batch * perBatch)..<min(count, (batch + 1) * perBatch)
            _ = try engine.saveObjects(range.map { n in
                record(String(format: "k%04d", n), ["title": .string("\(colours[n % 5]) item \(n)"), "n": JSON(n),
                                                      "colour": .string(colours[n % 5])])
            }, index: "items")
        }
    }

    private func browseAll(_ engine: Engine, index: String = "items", _ parameters: JSONObject = [:],
                           hitsPerPage: Int? = nil) throws -> [JSONObject] {
        var page = try engine.browse(index: index, parameters: parameters, cursor: nil, hitsPerPage: hitsPerPage)
        var hits = page.hits
        while let cursor = page.cursor {
            page = try engine.browse(index: index, parameters: [:], cursor: cursor)
            hits += page.hits
        }
        return hits
    }

    func testEveryRecordOnceInObjectIDOrderPastThePaginationLimit() throws {
        let engine = try engine()
        try fill(engine, count: 2_345, batches: 3)
        _ = try engine.setSettings(["paginationLimitedTo": 100], index: "items")
        let hits = try browseAll(engine)
        XCTAssertEqual(hits.map { $0["objectID"]?.stringValue ?? "" }, (0..<2_345).map { String(format: "k%04d", $0) })
        XCTAssertEqual(hits[7], ["objectID": "k0007", "title": "blue item 7", "n": 7, "colour": "blue"])
        let first = try engine.browse(index: "items", parameters: [:], cursor: nil, hitsPerPage: 10, attributesToRetrieve: ["n"])
        XCTAssertEqual(first.nbHits, 2_345)
        XCTAssertEqual(first.hits.first, ["objectID": "k0000", "n": 0])
        let second = try engine.browse(index: "items", parameters: [:], cursor: first.cursor)
        XCTAssertEqual(second.hits.map { $0["objectID"] }, (10..<20).map { .string(String(format: "k%04d", $0)) },
                       "the cursor keeps the page size")
        XCTAssertEqual(second.hits.first, ["objectID": "k0010", "n": 10], "and the attributes")
    }

    func testQueryAndFiltersFindWhatSearchCounts() throws {
        let engine = try engine()
        try fill(engine, count: 600, batches: 4)
        _ = try engine.setSettings(["attributesForFaceting": ["colour"], "searchableAttributes": ["title"]], index: "items")
        _ = try engine.deleteObjects(["k0003", "k0008", "k0013"], index: "items")
        _ = try engine.saveObjects([record("k0018", ["title": "renamed", "n": 18, "colour": "amber"])], index: "items")
        let cases: [JSONObject] = [
            ["query": "ambr"], ["query": "amber", "filters": "n < 100"], ["filters": "(colour:amber OR colour:red) AND NOT n = 1"],
            ["query": "item 1"], ["facetFilters": [["colour:red", "colour:blue"]], "numericFilters": ["n >= 300"]],
            ["query": "zzzz"], ["query": "amb", "typoTolerance": false],
        ]
        for parameters in cases {
            var asked = parameters
            asked["hitsPerPage"] = 1000
            asked["paginationLimitedTo"] = 20_000
            asked["attributesToRetrieve"] = ["objectID"]
            let searched = try engine.search(index: "items", parameters: asked)
            let expected = Set(searched["hits"]?.arrayValue?.compactMap { $0["objectID"]?.stringValue } ?? [])
            let browsed = try browseAll(engine, parameters, hitsPerPage: 7)
            XCTAssertEqual(Set(browsed.compactMap { $0["objectID"]?.stringValue }), expected, "\(parameters)")
            XCTAssertEqual(browsed.count, expected.count, "no duplicates for \(parameters)")
            let first = try engine.browse(index: "items", parameters: parameters, cursor: nil)
            XCTAssertEqual(first.nbHits, searched.nbHits, "\(parameters)")
        }
    }

    func testAReplicaBrowsesItsPrimarysRecords() throws {
        let engine = try engine()
        try fill(engine, count: 30)
        _ = try engine.setSettings(["replicas": ["items_by_n"]], index: "items")
        XCTAssertEqual(try browseAll(engine, index: "items_by_n"), try browseAll(engine))
        XCTAssertEqual(try engine.getObjects(["k0002"], index: "items_by_n", attributesToRetrieve: ["colour"]),
                       [["objectID": "k0002", "colour": "blue"]])
    }

    func testTheCursorIsRefusedWhereItDoesNotBelong() throws {
        let engine = try engine()
        try fill(engine, count: 20)
        _ = try engine.saveObjects([record("x")], index: "other")
        guard let cursor = try engine.browse(index: "items", parameters: [:], cursor: nil, hitsPerPage: 5).cursor else {
            return XCTFail("a first page of 5 out of 20 has a cursor")
        }
        XCTAssertThrowsError(try engine.browse(index: "other", parameters: [:], cursor: cursor)) {
            guard case .invalidParameter(let name, let expected)? = $0 as? BackendError else { return XCTFail("\($0)") }
            XCTAssertEqual(name, "cursor")
            XCTAssertTrue(expected.contains("'items'"), expected)
        }
        XCTAssertThrowsError(try engine.browse(index: "items", parameters: ["filters": "n > 3"], cursor: cursor)) {
            guard case .invalidParameter(let name, _)? = $0 as? BackendError else { return XCTFail("\($0)") }
            XCTAssertEqual(name, "filters")
        }
        for damaged in ["", "%%%", String(cursor.dropLast(3)), Base64URL.encode(Array(#"{"v":2}"#.utf8))] {
            XCTAssertThrowsError(try engine.browse(index: "items", parameters: [:], cursor: damaged), damaged) {
                guard case .invalidParameter(let name, _)? = $0 as? BackendError else { return XCTFail("\($0)") }
                XCTAssertEqual(name, "cursor")
            }
        }
    }

    func testWritesDuringABrowseFollowTheRule() throws {
        let engine = try engine()
        try fill(engine, count: 100)
        let first = try engine.browse(index: "items", parameters: [:], cursor: nil, hitsPerPage: 40)
        _ = try engine.deleteObjects(["k0005", "k0070"], index: "items")
        _ = try engine.saveObjects([record("k0080", ["title": "new version"]), record("k0010b"), record("k0090b")], index: "items")
        _ = try engine.deleteObjects(["k0020"], index: "items")
        _ = try engine.saveObjects([record("k0020")], index: "items")  // re-added, behind the cursor
        var hits = first.hits
        var cursor = first.cursor
        while let next = cursor {
            let page = try engine.browse(index: "items", parameters: [:], cursor: next)
            hits += page.hits
            cursor = page.cursor
        }
        let ids = hits.compactMap { $0["objectID"]?.stringValue }
        XCTAssertEqual(ids.filter { $0 != "k0020" }.count, Set(ids).subtracting(["k0020"]).count, "never twice")
        XCTAssertEqual(ids.filter { $0 == "k0020" }.count, 2, "deleted and added again: once more, as a new record")
        XCTAssertFalse(ids.contains("k0070"), "deleted before its page")
        XCTAssertTrue(ids.contains("k0005"), "deleted after its page was read")
        XCTAssertEqual(Array(ids.suffix(3)), ["k0010b", "k0090b", "k0020"], "new records come last, in the order added")
        XCTAssertEqual(hits.first { $0["objectID"] == "k0080" }, ["objectID": "k0080", "title": "new version"])
        let untouched = Set((0..<100).map { String(format: "k%04d", $0) }).subtracting(["k0070"])
        XCTAssertTrue(untouched.isSubset(of: Set(ids)), "nothing that existed throughout is skipped")
    }
}
