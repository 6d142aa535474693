import QuarryFilters
import QuarryJSON
import QuarrySearchContract
import QuarrySession
import XCTest

/// The engine contract and the results frontends get:
/// 1. a hits searcher sends query, page 0, its options, `filters` without disjunctive or-groups, and
///    `disjunctiveFilters` per attribute (a range slider's numeric or-group too); a facets searcher sends
///    `facetQuery` and relaxes its own attribute;
/// 2. `showItemsOnEmptyQuery: false` with an empty query asks nothing and reports no hits;
/// 3. refinement lists: refined first, then count, then name; selected values with no match at count 0;
///    a searcher's own order; values compare without case;
/// 4. relevant sort: texts per A5, toggle from relevancy to 0 and back to the index default;
/// 5. a failed search becomes that searcher's `error`, the others still answer.
final class SearchPlanAndResultsTests: XCTestCase {
    func state() throws -> SessionState {
        var state = SessionState()
        state.query = "mu"
        state.addSearcher(.hits(HitsSearcher(index: "songs", hitsPerPage: 5, attributesToRetrieve: ["title"], facets: ["genre", "year"])))
        state.addSearcher(.facets(FacetsSearcher(index: "artists", attribute: "genre")))
        try state.filters.add(.facet("genre", "rock"), to: .or("genre", .facet))
        try state.filters.add(.facet("genre", "Jazz"), to: .or("genre", .facet))
        try state.filters.add(.facet("year", 1999), to: .or("year", .facet))
        try state.filters.add(.comparison("rating", .greaterOrEqual, 3), to: .and("rating"))
        return state
    }

    func testHitsRequestFollowsTheEngineContract() throws {
        let plan = SearchPlan(version: 4, state: try state())
        guard case .hits(let index, let query) = plan.requests[0].request else { return XCTFail("hits expected") }
        XCTAssertEqual(index, "songs")
        // Built from the filter state, the query equals the one an edge reads from these parameters.
        XCTAssertEqual(query, try SearchQuery(json: [
            "query": "mu", "page": 0, "hitsPerPage": 5, "attributesToRetrieve": ["title"], "facets": ["genre", "year"],
            "filters": #"( "rating" >= 3 )"#,
            "disjunctiveFilters": ["genre": #"( "genre":"Jazz" OR "genre":"rock" )"#, "year": #"( "year":1999 )"#],
        ]))
        XCTAssertNil(query.relevancyStrictness)
    }

    func testARangeInAnOrGroupIsDisjunctive() throws {
        var state = try state()
        try state.filters.add(.range("year", 1990, 1999), to: .or("years", .numeric))
        try state.filters.add(.range("rating", 1, 2), to: .or("mixed", .numeric))
        try state.filters.add(.range("year", 1, 2), to: .or("mixed", .numeric))
        guard case .hits(_, let query) = SearchPlan(version: 1, state: state).requests[0].request else { return XCTFail("hits expected") }
        // The slider keeps its bounds and bars outside the range; a group over two attributes stays a clause.
        XCTAssertEqual(query.disjunctive.map(\.attribute), ["genre", "year"])
        XCTAssertEqual(query.disjunctive.last?.filter, try FilterParser.parse(#"( "year":1999 ) AND ( "year":1990 TO 1999 )"#))
        XCTAssertEqual(query.filters.first?.expression, try FilterParser.parse(#"( "rating":1 TO 2 OR "year":1 TO 2 ) AND ( "rating" >= 3 )"#))
    }

    func testFacetsSearcherRelaxesItsOwnAttribute() throws {
        let plan = SearchPlan(version: 4, state: try state())
        guard case .facetValues(let index, let query) = plan.requests[1].request else { return XCTFail("facets expected") }
        XCTAssertEqual([index, query.attribute], ["artists", "genre"])
        XCTAssertEqual(query, try FacetValueQuery(attribute: "genre", json: [
            "facetQuery": "mu", "filters": #"( "rating" >= 3 )"#, "disjunctiveFilters": ["year": #"( "year":1999 )"#],
        ]))
    }

    func testEmptyQueryWithoutItemsAsksNothing() throws {
        var state = SessionState()
        state.addSearcher(.hits(HitsSearcher(index: "songs", showItemsOnEmptyQuery: false)))
        let backend = FakeBackend(response: ["hits": [["objectID": "1"]], "nbHits": 1])
        let result = SearchResults.run(SearchPlan(version: 1, state: state), backend: backend)[0]
        XCTAssertEqual(result["nbHits"], 0)
        XCTAssertEqual(result["hits"], [])
        XCTAssertEqual(backend.calls, 0)

        state.query = "  \t"
        let blank = SearchResults.run(SearchPlan(version: 2, state: state), backend: backend)[0]
        XCTAssertEqual(blank["nbHits"], 0, "a query of spaces alone is empty, as the engine reads it")
        XCTAssertEqual(backend.calls, 0)
    }

    func testRefinementListsOrderAndKeepSelectedValues() throws {
        let backend = FakeBackend(response: [
            "hits": [], "nbHits": 3,
            "facets": ["genre": ["pop": 7, "Rock": 2, "blues": 7, "folk": 1], "year": ["2001": 4]],
            "facets_stats": ["year": ["min": 2001, "max": 2001, "avg": 2001, "sum": 8004]],
        ])
        let results = SearchResults.run(SearchPlan(version: 4, state: try state()), backend: backend)
        XCTAssertEqual(results[0]["searcher"], "s1")
        XCTAssertEqual(results[0]["facets"]?["genre"], [
            ["value": "Rock", "count": 2, "isRefined": true],
            ["value": "Jazz", "count": 0, "isRefined": true],
            ["value": "blues", "count": 7, "isRefined": false],
            ["value": "pop", "count": 7, "isRefined": false],
            ["value": "folk", "count": 1, "isRefined": false],
        ])
        XCTAssertEqual(results[0]["facets"]?["year"], [["value": "1999", "count": 0, "isRefined": true], ["value": "2001", "count": 4, "isRefined": false]])
        XCTAssertEqual(results[0]["facets_stats"], ["year": ["min": 2001, "max": 2001, "avg": 2001, "sum": 8004]])
        XCTAssertNil(results[0]["relevantSort"])
    }

    func testSearcherChoosesItsFacetOrder() {
        let counts = FacetCounts(attribute: "x", values: [("b", 1), ("a", 2), ("c", 3)]).values
        let list = RefinementList(counts: counts, isRefined: { $0 == "c" }, selected: [], order: [.alpha])
        XCTAssertEqual(list.items.map(\.value), ["a", "b", "c"])
        let byCount = RefinementList(counts: counts, isRefined: { $0 == "b" }, selected: [], order: [.count])
        XCTAssertEqual(byCount.items.map(\.value), ["c", "a", "b"])
    }

    func testFacetHitsCarryIsRefined() throws {
        let backend = FakeBackend(response: ["facetHits": [["value": "rock", "highlighted": "<em>ro</em>ck", "count": 3], ["value": "pop", "highlighted": "pop", "count": 1]]])
        let result = SearchResults.run(SearchPlan(version: 4, state: try state()), backend: backend)[1]
        XCTAssertEqual(result["type"], "facets")
        XCTAssertEqual(result["facetHits"]?.arrayValue?.map { $0["isRefined"] }, [true, false])
    }

    func testRelevantSortTextsAndToggle() {
        XCTAssertEqual(RelevantSort.json(appliedStrictness: 90), [
            "priority": "relevancy", "hint": "We removed some search results to show you the most relevant ones.",
            "toggleTitle": "Show all results"])
        XCTAssertEqual(RelevantSort.json(appliedStrictness: 0), [
            "priority": "hitsCount", "hint": "Currently showing all results.", "toggleTitle": "Show more relevant results"])
        XCTAssertEqual(RelevantSort.toggled(nil, indexDefault: 90), 0)
        XCTAssertEqual(RelevantSort.toggled(0, indexDefault: 90), nil)
        XCTAssertEqual(RelevantSort.toggled(nil, indexDefault: 0), 100)
        var state = SessionState()
        state.addSearcher(.hits(HitsSearcher(index: "by_price")))
        let backend = FakeBackend(response: ["hits": [], "appliedRelevancyStrictness": 0, "nbSortedHits": 12])
        let result = SearchResults.run(SearchPlan(version: 1, state: state), backend: backend)[0]
        XCTAssertEqual(result["relevantSort"]?["priority"], "hitsCount")
        XCTAssertEqual(result["nbSortedHits"], 12)
    }

    func testVirtualReplicaIsRecognisedFromSettings() throws {
        let backend = FakeBackend(response: [:], settings: [
            "products": ["replicas": ["virtual(by_price)", "by_name"]],
            "by_price": ["primary": "products", "relevancyStrictness": 80],
            "by_name": ["primary": "products"],
        ])
        XCTAssertEqual(try RelevantSort.virtualReplicaDefault(index: "by_price", backend: backend), 80)
        XCTAssertNil(try RelevantSort.virtualReplicaDefault(index: "by_name", backend: backend))
        XCTAssertNil(try RelevantSort.virtualReplicaDefault(index: "products", backend: backend))
    }

    func testAFailedSearchIsThatSearchersError() throws {
        var state = SessionState()
        state.addSearcher(.hits(HitsSearcher(index: "missing")))
        state.addSearcher(.hits(HitsSearcher(index: "songs")))
        let backend = FakeBackend(response: ["hits": [], "nbHits": 0], failing: ["missing"])
        let results = SearchResults.run(SearchPlan(version: 1, state: state), backend: backend)
        XCTAssertNotNil(results[0]["error"]?["message"]?.stringValue)
        XCTAssertEqual(results[1]["nbHits"], 0)
    }
}
