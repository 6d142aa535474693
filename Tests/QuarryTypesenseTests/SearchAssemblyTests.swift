import Foundation
import QuarryEngine
import QuarryJSON
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

/// The captured Typesense answers (`SearchFixtures`) become exactly the embedded engine's response
/// for the same records, settings and parameters: keys, order, counts, facet order, stats. The
/// two differences the fixtures hold are asserted as such: Typesense merges facet values that
/// differ only by case, and highlighting members come from `HitHighlighting` (stubbed here).
final class SearchAssemblyTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-search-assembly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// The engine's answer, without what only highlighting adds and the timing.
    private func engineResponse(_ parameters: JSONObject, settings extra: JSONObject = [:]) throws -> JSON {
        let engine = try Engine(directory: directory.path, log: { _ in })
        defer { engine.close() }
        guard case .object(var settings) = try JSONParser.parse(SearchFixtures.settings) else { throw BackendError.cancelled }
        for (key, value) in extra { settings[key] = value }
        _ = try engine.setSettings(settings, index: "fx")
        let records = try JSONParser.parse(SearchFixtures.records).arrayValue?.compactMap(\.objectValue) ?? []
        _ = try engine.saveObjects(records, index: "fx")
        return Self.comparable(try engine.search(index: "fx", parameters: parameters))
    }

    private func assembled(_ parameters: JSONObject, fixture: String, settings extra: JSONObject = [:]) throws -> JSON {
        let settings = try SearchFixtures.indexSettings(extra)
        let results = try SearchFixtures.results(fixture)
        return Self.comparable(try TypesenseSearch.search(
            index: "fx", parameters: parameters, settings: settings, collection: "fx", fields: SearchFixtures.fields,
            positionEncoding: .utf16, highlighting: NoHighlighting(), filter: SearchFixtures.filter
        ) { (requests) throws(BackendError) -> [JSONObject] in
            XCTAssertEqual(requests.count, results.count)
            return results
        })
    }

    static func comparable(_ response: JSON) -> JSON {
        guard case .object(var object) = response else { return response }
        object["processingTimeMS"] = 0
        if case .array(let hits) = object["hits"] {
            object["hits"] = .array(hits.map { hit in
                guard case .object(var members) = hit else { return hit }
                for key in ["_highlightResult", "_snippetResult", "_matchRanges"] { members[key] = nil }
                return .object(members)
            })
        }
        return .object(object)
    }

    func testDisjunctiveAnswerIsTheEngines() throws {
        let parameters: JSONObject = ["query": "giv", "facets": ["color", "brand"], "hitsPerPage": 2,
                                      "disjunctiveFilters": ["color": "color:red OR color:blue"]]
        let actual = try assembled(parameters, fixture: SearchFixtures.disjunctive)
        XCTAssertEqual(JSONWriter.string(actual), JSONWriter.string(try engineResponse(parameters)))
        XCTAssertEqual(actual["facets"]?["color"]?.objectValue?.keys.map { $0 }, ["blue", "green", "red"])
        XCTAssertEqual(actual["hits"]?.arrayValue?.compactMap { $0["objectID"]?.stringValue }, ["2", "1"])
    }

    func testDistinctCountsFollowTheEnginesRule() throws {
        let settings: JSONObject = ["attributeForDistinct": "brand", "distinct": true]
        let parameters: JSONObject = ["query": "g", "facets": ["color"]]
        let actual = try assembled(parameters, fixture: SearchFixtures.distinct, settings: settings)
        var expected = try engineResponse(parameters, settings: settings)
        // Typesense 0.24 merges facet values differing only by case ("red" and "Red" → "Red": 2).
        XCTAssertEqual(expected["facets"]?["color"], ["Red": 1, "blue": 1, "green": 1, "red": 1])
        XCTAssertEqual(actual["facets"]?["color"], ["Red": 2, "blue": 1, "green": 1])
        guard case .object(var object) = expected, case .object(var facets)? = object["facets"] else { return XCTFail("no facets") }
        facets["color"] = ["Red": 2, "blue": 1, "green": 1]
        object["facets"] = .object(facets)
        expected = .object(object)
        // nbHits: Acme's two hits count once, Bolt once, the hit without a brand once.
        XCTAssertEqual(actual["nbHits"], 3)
        XCTAssertEqual(Set(actual["hits"]?.arrayValue?.compactMap { $0["objectID"]?.stringValue } ?? []), ["2", "4", "5"])
        XCTAssertEqual(Self.withoutHitOrder(actual), Self.withoutHitOrder(expected))
    }

    /// Hits tied on every criterion come in each backend's own order.
    static func withoutHitOrder(_ response: JSON) -> String {
        guard case .object(var object) = response, let hits = object["hits"]?.arrayValue else { return JSONWriter.string(response) }
        object["hits"] = .array(hits.sorted { JSONWriter.string($0) < JSONWriter.string($1) })
        return JSONWriter.string(.object(object))
    }

    func testStatsSelectedZerosAndOrder() {
        let counts = [("10", 2), ("2.5", 1), ("x", 4), ("b", 2), ("a", 2)]
        XCTAssertEqual(FacetAssembly.values(counts, limit: 3, alpha: false, selected: ["pink", "A"]).map(\.0), ["x", "10", "a", "pink"])
        XCTAssertEqual(FacetAssembly.values(counts, limit: 2, alpha: true, selected: []).map(\.0), ["10", "2.5"])
        XCTAssertEqual(FacetAssembly.values(counts, limit: 0, alpha: false, selected: ["q"]).map(\.1), [0])
        XCTAssertEqual(FacetAssembly.stats(counts, of: "n")?.json, ["min": 2.5, "max": 10, "avg": 7.5, "sum": 22.5])
        XCTAssertNil(FacetAssembly.stats([("x", 1)], of: "n"))
    }

    func testRefusedSearchesBecomeEngineErrors() throws {
        let settings = try SearchFixtures.indexSettings()
        let run = { (answer: JSONObject) throws -> JSON in
            try TypesenseSearch.search(index: "fx", parameters: ["query": "g"], settings: settings, collection: "fx",
                                       fields: SearchFixtures.fields, positionEncoding: .utf16,
                                       highlighting: nil, filter: SearchFixtures.filter) { (_) throws(BackendError) -> [JSONObject] in [answer] }
        }
        XCTAssertThrowsError(try run(["code": 404, "error": "Not found."])) { XCTAssertEqual($0 as? BackendError, .indexNotFound("fx")) }
        XCTAssertThrowsError(try run(["code": 400, "error": "Bad filter"])) {
            XCTAssertEqual($0 as? BackendError, .storage("Typesense refused a search (400): Bad filter"))
        }
    }
}
