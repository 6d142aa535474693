import QuarryEngine
import QuarryJSON
import QuarryText
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

/// Asking Typesense for a facet's top values only (`FacetCut`, `FacetRefetch`):
/// 1. a search asks for `maxValuesPerFacet` and a margin, or every value where the answer needs
///    them all (alpha order, numbers for stats, the distinct attribute, searchForFacetValues);
/// 2. a top-K answer suffices when its lowest count is below the count at the engine's cut, or when
///    it holds every value, and not when it misses a selected value;
/// 3. otherwise only the uncertain fields of the searches concerned are fetched again, whole, and
///    their counts replace the first ones, giving the engine's order for ties at the cut.
final class SearchFacetCutTests: XCTestCase {
    private func translate(_ json: JSONObject, settings extra: JSONObject = [:]) throws -> SearchTranslation {
        let settings = try SearchFixtures.indexSettings(extra)
        let parameters = try SearchParameters(json: json, settings: settings)
        return try SearchTranslation(index: "fx", parameters: parameters, settings: settings, collection: "quarry_fx",
                                     fields: SearchFixtures.fields, filter: SearchFixtures.filter, highlighting: NoHighlighting())
    }

    private static func counts(_ counts: [Int]) -> [(String, Int)] { counts.enumerated().map { ("v\($0.offset)", $0.element) } }

    func testAskedValues() throws {
        XCTAssertEqual(FacetCut.asked(limit: 10, needsAll: false), 60)
        XCTAssertEqual(FacetCut.asked(limit: 100, needsAll: false), 300)
        XCTAssertEqual(FacetCut.asked(limit: 0, needsAll: false), 50)
        XCTAssertEqual(FacetCut.asked(limit: 10, needsAll: true), FacetCut.all)
        XCTAssertEqual(FacetCut.asked(limit: .max, needsAll: false), FacetCut.all)

        let plain = try translate(["query": "g", "facets": ["color", "brand"], "maxValuesPerFacet": 10])
        XCTAssertEqual(plain.requests[0]["max_facet_values"], 60)
        // price holds numbers (n_price): its stats read every value, and the search counting it asks for them all.
        let numeric = try translate(["query": "g", "facets": ["color", "price"], "maxValuesPerFacet": 10])
        XCTAssertEqual(numeric.requests[0]["max_facet_values"], JSON(FacetCut.all))
        let alpha = try translate(["query": "g", "facets": ["color"], "sortFacetValuesBy": "alpha"])
        XCTAssertEqual(alpha.requests[0]["max_facet_values"], JSON(FacetCut.all))
        // Distinct: the search counting the distinct attribute sums every value's hits.
        let distinct = try translate(["query": "g", "facets": ["color"]], settings: ["attributeForDistinct": "brand", "distinct": true])
        XCTAssertEqual(distinct.requests[1]["facet_by"], "f_color,f_brand")
        XCTAssertEqual(distinct.requests[1]["max_facet_values"], JSON(FacetCut.all))
        // searchForFacetValues counts with maxValuesPerFacet Int.max.
        let settings = try SearchFixtures.indexSettings()
        let counting = FacetValueSearch.countingParameters(try SearchParameters(json: ["query": "g"], settings: settings), attribute: "brand")
        let facetSearch = try SearchTranslation(index: "fx", parameters: counting, settings: settings, collection: "quarry_fx",
                                                fields: SearchFixtures.fields, filter: SearchFixtures.filter, highlighting: nil)
        XCTAssertEqual(facetSearch.requests[0]["max_facet_values"], JSON(FacetCut.all))
    }

    func testWhenTopValuesSuffice() {
        // Fewer values than asked, or total_values says all came: complete.
        XCTAssertTrue(FacetCut.suffices(Self.counts([5, 5, 5]), asked: 6, totalValues: nil, limit: 2, selected: ["v9"]))
        XCTAssertTrue(FacetCut.suffices(Self.counts([5, 5, 5, 5]), asked: 4, totalValues: 4, limit: 2, selected: []))
        // The lowest count returned is below the count at the cut (4): every value counted 4 or more came.
        XCTAssertTrue(FacetCut.suffices(Self.counts([9, 7, 4, 4, 3, 2]), asked: 6, totalValues: 40, limit: 3, selected: []))
        // Cut at 4 with 4 the lowest returned: more values counted 4 may exist.
        XCTAssertFalse(FacetCut.suffices(Self.counts([9, 7, 4, 4, 4, 4]), asked: 6, totalValues: 40, limit: 3, selected: []))
        XCTAssertFalse(FacetCut.suffices(Self.counts([3, 3, 3, 3]), asked: 4, totalValues: nil, limit: 2, selected: []))
        // A selected value not returned may still have a count past the cut.
        XCTAssertFalse(FacetCut.suffices(Self.counts([9, 7, 4, 2]), asked: 4, totalValues: 9, limit: 1, selected: ["v9"]))
        XCTAssertTrue(FacetCut.suffices(Self.counts([9, 7, 4, 2]), asked: 4, totalValues: 9, limit: 1, selected: ["V3"]))
        // A value spelling a number changes nothing: stats are the numeric attributes', fetched whole.
        XCTAssertTrue(FacetCut.suffices([("x", 9), ("2019", 7), ("y", 4), ("z", 2)], asked: 4, totalValues: 9, limit: 1, selected: []))
        // No values listed: only selected values and numbers matter.
        XCTAssertTrue(FacetCut.suffices(Self.counts([3, 3, 3, 3]), asked: 4, totalValues: 9, limit: 0, selected: []))
    }

    func testTiesAtTheCutAreFetchedAgainWhole() throws {
        let t = try translate(["query": "g", "facets": ["color", "brand"], "maxValuesPerFacet": 2,
                               "disjunctiveFilters": ["color": "color:c1 OR color:zz"]])
        XCTAssertEqual(t.requests.map { $0["facet_by"] }, ["f_brand", "f_color"])
        XCTAssertEqual(t.requests.map { $0["max_facet_values"] }, [52, 52])
        // brand: 52 of 300 values, all tied at 3 around the cut; color: all its 52 values (total_values).
        let brand = (0..<52).map { (i: Int) -> JSON in ["value": .string("b\(51 - i)"), "count": 3] }
        let color = (0..<52).map { (i: Int) -> JSON in ["value": .string("c\(i)"), "count": JSON(i < 2 ? 9 : 1)] }
        let first: [JSONObject] = [
            ["found": 80, "hits": [], "facet_counts": [["field_name": "f_brand", "counts": .array(brand), "stats": ["total_values": 300]]]],
            ["found": 90, "hits": [], "facet_counts": [["field_name": "f_color", "counts": .array(color), "stats": ["total_values": 52]]]],
        ]
        let refetch = try XCTUnwrap(FacetRefetch(t, results: first))
        XCTAssertEqual(refetch.targets.map(\.result), [0])
        XCTAssertEqual(refetch.targets.map(\.fields), [["f_brand"]])
        var expected = t.requests[0]
        for key in ["page", "include_fields", "sort_by"] { expected[key] = nil }
        expected["per_page"] = 0
        expected["max_facet_values"] = JSON(FacetCut.all)
        XCTAssertEqual(refetch.requests, [expected])

        let whole = (0..<300).map { (i: Int) -> JSON in ["value": .string("b\(299 - i)"), "count": 3] }
        var sent: [[JSONObject]] = []
        let response = try TypesenseSearch.search(
            index: "fx", parameters: ["query": "g", "facets": ["color", "brand"], "maxValuesPerFacet": 2,
                                      "disjunctiveFilters": ["color": "color:c1 OR color:zz"]],
            settings: try SearchFixtures.indexSettings(), collection: "quarry_fx", fields: SearchFixtures.fields,
            positionEncoding: .utf16, highlighting: NoHighlighting(), filter: SearchFixtures.filter
        ) { (requests) throws(BackendError) -> [JSONObject] in
            sent.append(requests)
            if sent.count == 1 { return first }
            return [["found": 80, "hits": [], "facet_counts": [["field_name": "f_brand", "counts": .array(whole)]]]]
        }
        XCTAssertEqual(sent.map(\.count), [2, 1])
        // The engine's order: count, then text; c1 matched, zz is selected with no match.
        XCTAssertEqual(response["facets"]?["brand"]?.objectValue?.keys.map { $0 }, ["b0", "b1"])
        XCTAssertEqual(response["facets"]?["color"]?.objectValue?.keys.map { $0 }, ["c0", "c1", "zz"])
        XCTAssertEqual(response["facets"]?["color"]?["zz"], 0)
    }

    func testNoRefetchWhenEveryAnswerSuffices() throws {
        let t = try translate(["query": "g", "facets": ["brand"], "maxValuesPerFacet": 2])
        let few: [JSONObject] = [["found": 3, "hits": [], "facet_counts": [["field_name": "f_brand", "counts": [["value": "a", "count": 1]]]]]]
        XCTAssertNil(FacetRefetch(t, results: few))
    }
}
