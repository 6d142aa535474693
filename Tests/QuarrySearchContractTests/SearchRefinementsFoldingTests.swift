import QuarryFilters
import QuarryJSON
@testable import QuarrySearchContract
import XCTest

/// A count of one attribute needs no other attribute's relaxed counts: folding the other or-groups
/// and menus into the filter leaves one condition set to count under, and the same records.
final class SearchRefinementsFoldingTests: XCTestCase {
    private func refinements(_ json: JSONObject) throws -> SearchRefinements {
        let settings = try IndexSettings(json: ["attributesForFaceting": ["brand", "color", "lvl0", "lvl1"]])
        return try SearchRefinements(query: try SearchQuery(json: json), settings: settings)
    }

    func testOtherGroupsAndMenusBecomeTheFilterTheHitsPass() throws {
        let asked = try refinements([
            "filters": "brand:a OR brand:b", "facets": ["brand"],
            "disjunctiveFilters": ["color": "color:red OR color:blue"],
            "hierarchicalFacets": [["attributes": ["lvl0", "lvl1"], "path": "A > B"]],
        ])
        XCTAssertEqual(try ConditionPlan(asked).counted.map(\.attribute), ["brand", "color", "lvl0", "lvl1"],
                       "unfolded, every group's attribute and every level is counted on its own")

        let folded = asked.folded(keepingCountsOf: "brand")
        XCTAssertTrue(folded.disjunctive.isEmpty)
        XCTAssertTrue(folded.hierarchical.isEmpty)
        XCTAssertEqual(folded.filter, try FilterParser.parse(#"(brand:a OR brand:b) AND (color:red OR color:blue) AND lvl1:"A > B""#))
        let plan = try ConditionPlan(folded)
        XCTAssertEqual(plan.counted.map(\.attribute), ["brand"])
        XCTAssertEqual(plan.hitConditions, 0)
    }

    func testTheCountedAttributesOwnGroupAndMenuStayRelaxed() throws {
        let asked = try refinements([
            "facets": ["color"], "disjunctiveFilters": ["color": "color:red", "brand": "brand:a"],
            "hierarchicalFacets": [["attributes": ["lvl0", "lvl1"], "path": "A"]],
        ])
        let byColor = asked.folded(keepingCountsOf: "color")
        XCTAssertEqual(byColor.disjunctive.map(\.attribute), ["color"])
        XCTAssertEqual(byColor.filter, try FilterParser.parse(#"brand:a AND lvl0:"A""#))

        let byLevel = asked.folded(keepingCountsOf: "lvl1")
        XCTAssertEqual(byLevel.hierarchical.map(\.attributes), [["lvl0", "lvl1"]])
        XCTAssertEqual(byLevel.filter, try FilterParser.parse("color:red AND brand:a"))
    }
}
