import QuarryEngine
import QuarryJSON
import XCTest

/// `optionalFilters`:
/// 1. exclude nothing: `nbHits` is unchanged;
/// 2. records matching more optional groups rank first (the `filters` criterion sits before
///    `proximity`, `attribute`, `exact` and `custom`), ties keep their usual order;
/// 3. `_rankingInfo.filters` reports how many groups a hit matched; a negated group boosts the others.
final class OptionalFiltersTests: XCTestCase {
    let fixture = FacetFixtures.fixture

    func testBoostsWithoutExcluding() throws {
        let plain = try XCTUnwrap(fixture.search("shirt"))
        XCTAssertEqual(plain.ids, ["1", "2", "4"])
        let boosted = try XCTUnwrap(fixture.search("shirt", ["optionalFilters": ["color:green", ["maker.name:Zeta", "maker.name:Bolt"]],
                                                             "getRankingInfo": true]))
        XCTAssertEqual(boosted.nbHits, 3)
        XCTAssertEqual(boosted.ids, ["4", "1", "2"])
        XCTAssertEqual(boosted.hits.map { $0["_rankingInfo"]?["filters"]?.intValue ?? -1 }, [2, 0, 0])
        let negated = try XCTUnwrap(fixture.search("shirt", ["optionalFilters": ["color:-red"]]))
        XCTAssertEqual(negated.ids, ["2", "4", "1"])
    }
}
