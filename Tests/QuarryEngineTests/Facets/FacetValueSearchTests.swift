import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Search for facet values:
/// 1. values match `facetQuery` by prefix and within the typo budget, each with its count, best first, highlighted;
/// 2. counts follow the optional query and filters; the attribute's own or-group is relaxed;
/// 3. `maxFacetHits` caps the list; an attribute not declared `searchable()` is an error naming the setting.
final class FacetValueSearchTests: XCTestCase {
    let fixture = SearchFixture([
        ["objectID": "1", "name": "tv", "brand": "Samsung", "color": "black"],
        ["objectID": "2", "name": "tv", "brand": "Samsung", "color": "white"],
        ["objectID": "3", "name": "phone", "brand": "Samsung", "color": "black"],
        ["objectID": "4", "name": "tv", "brand": "Sony", "color": "black"],
        ["objectID": "5", "name": "phone", "brand": "Sonos", "color": "white"],
        ["objectID": "6", "name": "phone", "brand": "Apple", "color": "white"],
    ], settings: .with {
        $0.searchableAttributes = [SearchableAttribute(paths: ["name"])]
        $0.attributesForFaceting = [FacetAttribute(attribute: "brand", modifier: .searchable), FacetAttribute(attribute: "color")]
    })

    private func facetHits(_ facetQuery: String, _ extra: JSONObject = [:], max: Int = 10) throws -> [(String, String, Int)] {
        var json = extra
        json["facetQuery"] = .string(facetQuery)
        let parameters = try SearchParameters(json: json, settings: fixture.settings)
        let result = try fixture.index.searchForFacetValues(attribute: "brand", facetQuery: facetQuery, maxFacetHits: max,
                                                            parameters: parameters)
        XCTAssertEqual(result["exhaustiveFacetsCount"], true)
        return (result["facetHits"]?.arrayValue ?? []).map {
            ($0["value"]?.stringValue ?? "", $0["highlighted"]?.stringValue ?? "", $0["count"]?.intValue ?? -1)
        }
    }

    func testPrefixAndTypoMatchingWithCounts() throws {
        let so = try facetHits("so")
        XCTAssertEqual(so.map(\.0), ["Sonos", "Sony"], "equal counts: by value")
        XCTAssertEqual(so.first?.1, "<em>So</em>nos")
        XCTAssertEqual(try facetHits("samsnug").map(\.0), ["Samsung"], "one transposition")
        XCTAssertEqual(try facetHits("").map(\.0), ["Samsung", "Apple", "Sonos", "Sony"])
        XCTAssertEqual(try facetHits("", max: 1).map(\.2), [3])
    }

    func testCountsFollowQueryAndFilters() throws {
        XCTAssertEqual(try facetHits("s", ["query": "tv"]).map { "\($0.0)=\($0.2)" }, ["Samsung=2", "Sony=1"])
        XCTAssertEqual(try facetHits("s", ["filters": "color:white"]).map { "\($0.0)=\($0.2)" }, ["Samsung=1", "Sonos=1"])
        let relaxed = try facetHits("", ["disjunctiveFilters": ["brand": "brand:Apple"], "filters": "color:white"])
        XCTAssertEqual(relaxed.map { "\($0.0)=\($0.2)" }, ["Apple=1", "Samsung=1", "Sonos=1"])
        let otherGroup = try facetHits("", ["disjunctiveFilters": ["color": "color:white OR color:red"], "query": "phone"])
        XCTAssertEqual(otherGroup.map { "\($0.0)=\($0.2)" }, ["Apple=1", "Sonos=1"], "another attribute's or-group filters")
    }

    func testAttributeMustBeSearchable() throws {
        let parameters = try SearchParameters(json: [:], settings: fixture.settings)
        XCTAssertThrowsError(try fixture.index.searchForFacetValues(attribute: "color", facetQuery: "b", maxFacetHits: 10,
                                                                    parameters: parameters)) { error in
            XCTAssertTrue("\(error)".contains("searchable(color)"), "\(error)")
        }
    }
}
