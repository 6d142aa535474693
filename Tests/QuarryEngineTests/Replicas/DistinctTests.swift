import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// `distinct` with `attributeForDistinct`:
/// 1. keeps the best N hits per group after ranking; records without the attribute are their own group;
/// 2. `nbHits` counts the hits that remain; `distinct: 0` (or no attribute) turns it off;
/// 3. the setting applies when the query does not say.
final class DistinctTests: XCTestCase {
    let fixture = SearchFixture([
        ["objectID": "1", "name": "guitar one", "brand": "Fender", "popularity": 5],
        ["objectID": "2", "name": "guitar two", "brand": "Fender", "popularity": 9],
        ["objectID": "3", "name": "guitar three", "brand": "Gibson", "popularity": 1],
        ["objectID": "4", "name": "guitar four", "brand": "fender", "popularity": 7],
        ["objectID": "5", "name": "guitar five", "popularity": 3],
        ["objectID": "6", "name": "guitar six", "popularity": 2],
    ], settings: .with {
        $0.searchableAttributes = [SearchableAttribute(paths: ["name"])]
        $0.customRanking = [CustomRankingCriterion(attribute: "popularity", ascending: false)]
        $0.attributeForDistinct = "brand"
        $0.distinct = 1
    })

    func testKeepsTheBestPerGroup() throws {
        let one = try XCTUnwrap(fixture.search("guitar"))
        XCTAssertEqual(one.ids, ["2", "4", "5", "6", "3"])
        XCTAssertEqual(one.nbHits, 5)
        let two = try XCTUnwrap(fixture.search("guitar", ["distinct": 2]))
        XCTAssertEqual(two.ids, ["2", "4", "1", "5", "6", "3"])
        let off = try XCTUnwrap(fixture.search("guitar", ["distinct": false]))
        XCTAssertEqual(off.nbHits, 6)
        XCTAssertEqual(off.ids, ["2", "4", "1", "5", "6", "3"])
    }
}
