import QuarryFilters
import QuarryJSON
import QuarrySearchContract
import QuarrySession
import XCTest

/// Selection lists and hierarchical menus (protocol/sessions.md):
/// 1. multiple mode toggles each item on and off independently;
/// 2. single mode: picking an item removes the list's other items (and only those), picking the selected one clears it;
/// 3. single mode without items treats the group's filters on the same attribute as the list;
/// 4. a hierarchical pick filters on the path's level; picking it again moves up one level; picking an
///    ancestor moves to that ancestor's parent; a path deeper than the levels is refused;
/// 5. the hierarchical selection renders in `filters` but reaches the engine as `hierarchicalFacets`.
final class SelectionAndHierarchyTests: XCTestCase {
    let red = FilterAtom.facet("color", "red")
    let blue = FilterAtom.facet("color", "blue")
    let green = FilterAtom.facet("color", "green")
    let group = FilterGroupID.or("colors", .facet)

    func testMultipleModeToggles() throws {
        var state = FilterState()
        try state.select(red, in: group, mode: .multiple)
        try state.select(blue, in: group, mode: .multiple)
        XCTAssertEqual(state.filters(in: group), [red, blue])
        try state.select(red, in: group, mode: .multiple)
        XCTAssertEqual(state.filters(in: group), [blue])
    }

    func testSingleModeReplacesTheListsOtherItemsOnly() throws {
        var state = FilterState()
        let items = [red, blue, green]
        let other = FilterAtom.facet("size", "M")
        try state.add(other, to: .and("colors"))
        try state.select(red, in: .and("colors"), mode: .single, items: items)
        try state.select(blue, in: .and("colors"), mode: .single, items: items)
        XCTAssertEqual(state.filters(in: .and("colors")), [blue, other], "red was replaced, the size filter stays")
        XCTAssertFalse(try state.select(blue, in: .and("colors"), mode: .single, items: items))
        XCTAssertEqual(state.filters(in: .and("colors")), [other], "picking the selected one clears it")
    }

    func testSingleModeWithoutItemsUsesTheAttribute() throws {
        var state = FilterState()
        try state.select(red, in: group, mode: .single)
        try state.select(green, in: group, mode: .single)
        XCTAssertEqual(state.filters(in: group), [green])
    }

    func testHierarchicalSelectAndDeselect() throws {
        var session = SessionState()
        let levels = ["cat.lvl0", "cat.lvl1", "cat.lvl2"]
        func select(_ path: String?) throws -> String? {
            try session.selectHierarchical(name: "cat", attributes: levels, separator: " > ", path: path)
            return session.menus["cat"]?.path(in: session.filters)
        }
        XCTAssertEqual(try select("Books > Fiction"), "Books > Fiction")
        XCTAssertEqual(session.filters.filters(in: .hierarchical("cat")), [.facet("cat.lvl1", "Books > Fiction")])
        XCTAssertEqual(try select("Books > Fiction > Crime"), "Books > Fiction > Crime")
        XCTAssertEqual(try select("Books > Fiction > Crime"), "Books > Fiction", "the same path again goes up one level")
        XCTAssertEqual(try select("Books"), nil, "an ancestor of the selection goes to its parent: none")
        XCTAssertEqual(try select("Music"), "Music")
        XCTAssertEqual(try select("Books"), "Books", "a sibling replaces the selection")
        XCTAssertEqual(try select(nil), nil)
        XCTAssertNotNil(session.menus["cat"], "the menu stays, so its top level is still counted")
        XCTAssertThrowsError(try select("a > b > c > d"))
    }

    func testHierarchicalSelectionRendersButGoesToTheEngineApart() throws {
        var session = SessionState()
        session.addSearcher(.hits(HitsSearcher(index: "products")))
        try session.selectHierarchical(name: "cat", attributes: ["lvl0", "lvl1"], separator: " > ", path: "A > B")
        try session.filters.add(.facet("brand", "x"), to: .and("brand"))
        XCTAssertEqual(session.filters.rendered(), #"( "brand":"x" ) AND ( "lvl1":"A > B" )"#)
        guard case .hits(_, let query) = SearchPlan(version: 1, state: session).requests[0].request else {
            return XCTFail("expected a hits request")
        }
        XCTAssertEqual(query.filter, try FilterParser.parse(#"( "brand":"x" )"#))
        XCTAssertEqual(query.hierarchical, try SearchQuery(json: [
            "hierarchicalFacets": [["attributes": ["lvl0", "lvl1"], "separator": " > ", "path": "A > B"]],
        ]).hierarchical)
        XCTAssertEqual(query.facets, ["lvl0", "lvl1"])
    }

    func testHierarchicalLevelsAreRefinedAlongThePath() throws {
        var session = SessionState()
        session.addSearcher(.hits(HitsSearcher(index: "products")))
        try session.selectHierarchical(name: "cat", attributes: ["lvl0", "lvl1"], separator: " > ", path: "A > B")
        let response: JSONObject = ["hits": [], "facets": ["lvl0": ["A": 5, "C": 9], "lvl1": ["A > B": 2, "A > D": 3]]]
        let backend = FakeBackend(response: response)
        let result = SearchResults.run(SearchPlan(version: 1, state: session), backend: backend)[0]
        XCTAssertEqual(result["facets"]?["lvl0"], [["value": "A", "count": 5, "isRefined": true], ["value": "C", "count": 9, "isRefined": false]])
        XCTAssertEqual(result["facets"]?["lvl1"], [["value": "A > B", "count": 2, "isRefined": true], ["value": "A > D", "count": 3, "isRefined": false]])
    }
}
