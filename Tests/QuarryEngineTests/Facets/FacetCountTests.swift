import QuarryEngine
import QuarryJSON
import QuarrySearchContract
import XCTest

/// Facet counts:
/// 1. counts are exact per value over every match of the query and filters, case kept as stored;
/// 2. `["*"]` counts every declared facet except `filterOnly` ones; nested attributes count by path;
///    an attribute named but not counted is listed in `facetsNotCounted` with the setting to change;
/// 3. `maxValuesPerFacet` and `sortFacetValuesBy` (count, alpha) shape the lists;
/// 4. `facets_stats` gives min, max, avg and sum of numeric facets over the matches;
/// 5. disjunctive groups relax only their own attribute's counts; a selected value with no match is listed with 0;
///    a range group relaxes its attribute's stats too; a group on an undeclared attribute filters like `filters`;
/// 6. hierarchical levels are counted with deeper selections relaxed, and the path filters the hits.
final class FacetCountTests: XCTestCase {
    let fixture = FacetFixtures.fixture

    func testCountsAreExactOverQueryAndFilters() throws {
        let all = try XCTUnwrap(fixture.search("", ["facets": ["color", "maker.name"]]))
        XCTAssertEqual(all.facet("color"), ["Red": 2, "Blue": 2, "red": 1, "Green": 1])
        XCTAssertEqual(all.facet("maker.name"), ["Acme": 2, "Zeta": 2, "Bolt": 2])
        XCTAssertEqual(all.extra["exhaustiveFacetsCount"], true)

        let shirts = try XCTUnwrap(fixture.search("shirt", ["facets": ["color"], "filters": "price < 35"]))
        XCTAssertEqual(shirts.nbHits, 2)
        XCTAssertEqual(shirts.facet("color"), ["Red": 1, "Blue": 1])
    }

    func testStarCountsDeclaredFacetsExceptFilterOnly() throws {
        let response = try XCTUnwrap(fixture.search("", ["facets": ["*"]]))
        let names = Set(response.extra["facets"]?.objectValue?.keys.map { $0 } ?? [])
        XCTAssertEqual(names, ["color", "maker.name", "price", "category.lvl0", "category.lvl1"])
        let named = try XCTUnwrap(fixture.search("", ["facets": ["color", "sizes", "name"]]))
        XCTAssertEqual(named.extra["facets"]?.objectValue?.keys.map { $0 }, ["color"], "filterOnly and undeclared are not counted")
        XCTAssertEqual(named.extra["facetsNotCounted"], [
            "sizes": "'sizes' is declared as filterOnly(sizes), which filters but is not counted; declare it as \"sizes\" in the index setting attributesForFaceting to count it",
            "name": "'name' is not declared for faceting; add \"name\" to the index setting attributesForFaceting to count it",
        ])
        XCTAssertNil(response.extra["facetsNotCounted"])
    }

    func testMaxValuesAndSortOrder() throws {
        let byCount = try XCTUnwrap(fixture.search("", ["facets": ["color"], "maxValuesPerFacet": 2]))
        XCTAssertEqual(byCount.extra["facets"]?["color"]?.objectValue?.keys.map { $0 }, ["Blue", "Red"])
        let alpha = try XCTUnwrap(fixture.search("", ["facets": ["color"], "sortFacetValuesBy": "alpha"]))
        XCTAssertEqual(alpha.extra["facets"]?["color"]?.objectValue?.keys.map { $0 }, ["Blue", "Green", "Red", "red"])
    }

    func testFacetStats() throws {
        let response = try XCTUnwrap(fixture.search("shirt", ["facets": ["price"]]))
        let stats = try XCTUnwrap(response.extra["facets_stats"]?["price"])
        XCTAssertEqual(stats["min"], 10)
        XCTAssertEqual(stats["max"], 40)
        XCTAssertEqual(stats["sum"], 70)
        XCTAssertEqual(stats["avg"]?.doubleValue ?? 0, 70.0 / 3, accuracy: 1e-9)
        XCTAssertNil(response.extra["facets_stats"]?["color"])
    }

    func testDisjunctiveCountsRelaxOnlyTheirOwnGroup() throws {
        let parameters: JSONObject = [
            "facets": ["color", "maker.name"],
            "disjunctiveFilters": ["color": "color:Red OR color:Purple"],
        ]
        let response = try XCTUnwrap(fixture.search("", parameters))
        XCTAssertEqual(response.nbHits, 3, "Red matches red too")
        XCTAssertEqual(Set(response.ids), ["1", "3", "6"])
        // Ticking red does not zero the other colours; Purple matched nothing and is listed with 0.
        XCTAssertEqual(response.facet("color"), ["Red": 2, "red": 1, "Blue": 2, "Green": 1, "Purple": 0])
        // Other facets count the hits.
        XCTAssertEqual(response.facet("maker.name"), ["Acme": 1, "Zeta": 1, "Bolt": 1])

        let two = try XCTUnwrap(fixture.search("", [
            "facets": ["color", "maker.name"], "filters": "price >= 20",
            "disjunctiveFilters": ["color": "color:Blue", "maker.name": "maker.name:Zeta"],
        ]))
        XCTAssertEqual(two.ids, [], "no blue Zeta")
        XCTAssertEqual(two.facet("color"), ["red": 1, "Green": 1, "Blue": 0], "colours of Zeta at price >= 20")
        XCTAssertEqual(two.facet("maker.name"), ["Acme": 1, "Bolt": 1, "Zeta": 0], "makers of blue at price >= 20")
    }

    func testARangeGroupRelaxesItsOwnCountsAndStats() throws {
        // A range slider's or-group: its histogram keeps the values outside the range, and its bounds.
        let response = try XCTUnwrap(fixture.search("", [
            "facets": ["price", "color"], "disjunctiveFilters": ["price": "price:20 TO 40"],
        ]))
        XCTAssertEqual(Set(response.ids), ["2", "3", "4"])
        XCTAssertEqual(response.facet("price").count, 6)
        XCTAssertEqual(response.extra["facets_stats"]?["price"]?["min"], 10)
        XCTAssertEqual(response.extra["facets_stats"]?["price"]?["max"], 60)
        XCTAssertEqual(response.facet("color"), ["Blue": 1, "red": 1, "Green": 1], "other facets count the hits")

        // Nothing counts `rating` (not declared for faceting): its group filters the hits, and nothing has one.
        let undeclared = try XCTUnwrap(fixture.search("", ["facets": ["color"], "disjunctiveFilters": ["rating": "rating >= 3"]]))
        XCTAssertEqual(undeclared.nbHits, 0)
        let json: JSONObject = ["query": "", "disjunctiveFilters": ["rating": "rating:good"]]
        XCTAssertThrowsError(try fixture.index.search(SearchParameters(json: json, settings: fixture.settings), records: InMemoryRecords(fixture.records)),
                             "a facet filter on an undeclared attribute") { error in
            XCTAssertTrue("\(error)".contains("rating"), "\(error)")
        }
    }

    func testDisjunctiveCountsFromTextCandidates() throws {
        let response = try XCTUnwrap(fixture.search("shoes", ["facets": ["color"], "disjunctiveFilters": ["color": "color:Blue"]]))
        XCTAssertEqual(response.ids, ["5"])
        XCTAssertEqual(response.facet("color"), ["Blue": 1, "Red": 1])
    }

    func testHierarchicalLevelsRelaxDeeperSelections() throws {
        let hierarchy: JSON = [["attributes": ["category.lvl0", "category.lvl1"], "separator": " > ", "path": "Clothes > Tops"]]
        let response = try XCTUnwrap(fixture.search("", ["hierarchicalFacets": hierarchy]))
        XCTAssertEqual(Set(response.ids), ["1", "2", "4"])
        XCTAssertEqual(response.facet("category.lvl0"), ["Clothes": 4, "Shoes": 2])
        XCTAssertEqual(response.facet("category.lvl1"), ["Clothes > Tops": 3, "Clothes > Dresses": 1])

        let top = try XCTUnwrap(fixture.search("", ["hierarchicalFacets": [["attributes": ["category.lvl0", "category.lvl1"], "path": "Shoes"]]]))
        XCTAssertEqual(Set(top.ids), ["5", "6"])
        XCTAssertEqual(top.facet("category.lvl0"), ["Clothes": 4, "Shoes": 2])
        XCTAssertEqual(top.facet("category.lvl1"), ["Shoes > Boots": 1, "Shoes > Sneakers": 1])

        let none = try XCTUnwrap(fixture.search("", ["hierarchicalFacets": [["attributes": ["category.lvl0", "category.lvl1"], "path": .null]]]))
        XCTAssertEqual(none.nbHits, 6)
        XCTAssertEqual(none.facet("category.lvl0"), ["Clothes": 4, "Shoes": 2])
        XCTAssertNil(none.extra["facets"]?["category.lvl1"])
    }

    func testCountsSpanSegmentsAfterUpdates() throws {
        let updated = fixture.index.updating(upserts: [(DocID(10), FacetFixtures.product(
            "11", "red hat", color: "Red", brand: "Acme", price: 5, tags: [], sizes: [], lvl: ["Clothes", "Clothes > Hats"]))],
            deletions: [DocID(0)])
        let response = try XCTUnwrap(fixture.search("red", ["facets": ["color", "price"]], index: updated))
        XCTAssertEqual(response.facet("color"), ["Red": 2, "red": 1])
        XCTAssertEqual(response.extra["facets_stats"]?["price"]?["min"], 5)
    }
}
