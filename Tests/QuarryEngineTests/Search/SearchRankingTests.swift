import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Tie-break ranking:
/// 1. Each default criterion (typo, proximity, attribute, exact, custom) decides a tie left by the previous ones,
///    and beats every later one (each fixture gives the loser a better popularity).
/// 2. The configured `ranking` order is honoured; `asc(attr)` first is an exhaustive sort.
/// 3. `unordered(attr)` ignores the position inside the attribute.
/// 4. customRanking puts records missing the value last, whatever the direction.
final class SearchRankingTests: XCTestCase {
    private func settings(_ searchable: [String] = ["title", "body"], unordered: Set<String> = []) -> IndexSettings {
        IndexSettings.with {
            $0.searchableAttributes = searchable.map { SearchableAttribute(paths: [$0], ordered: !unordered.contains($0)) }
            $0.customRanking = [CustomRankingCriterion(attribute: "popularity", ascending: false)]
        }
    }

    func testTypoBeatsEverythingAfterIt() {
        let f = SearchFixture([
            ["title": "hallo there", "popularity": 100],
            ["title": "hello there", "popularity": 1],
        ], settings: settings())
        XCTAssertEqual(f.ids("hello"), ["1", "0"])
    }

    func testProximityBreaksTypoTie() {
        let f = SearchFixture([
            ["title": "quick lazy sleepy brown dog", "popularity": 100],
            ["title": "quick brown dog", "popularity": 1],
        ], settings: settings())
        XCTAssertEqual(f.ids("quick brown"), ["1", "0"])
        let info = f.search("quick brown", ["getRankingInfo": true])?.hits.map { $0["_rankingInfo"]?["proximityDistance"] }
        XCTAssertEqual(info, [1, 3])
    }

    func testAttributeBreaksProximityTie() {
        let f = SearchFixture([
            ["title": "nothing", "body": "camera", "popularity": 100],
            ["title": "camera", "body": "nothing", "popularity": 1],
            ["title": "a good camera", "body": "nothing", "popularity": 50],
        ], settings: settings())
        XCTAssertEqual(f.ids("camera"), ["1", "2", "0"], "title before body; earlier position first")
    }

    func testUnorderedIgnoresPosition() {
        let f = SearchFixture([
            ["title": "camera", "popularity": 1],
            ["title": "a good camera", "popularity": 50],
        ], settings: settings(unordered: ["title"]))
        XCTAssertEqual(f.ids("camera"), ["1", "0"])
    }

    func testExactBreaksAttributeTie() {
        let f = SearchFixture([
            ["title": "jets", "popularity": 100],
            ["title": "jet", "popularity": 1],
        ], settings: settings())
        XCTAssertEqual(f.ids("jet"), ["1", "0"])
        let info = f.search("jet", ["getRankingInfo": true])?.hits.map { $0["_rankingInfo"]?["nbExactWords"] }
        XCTAssertEqual(info, [1, 0])
    }

    func testCustomRankingWithMissingValuesLast() {
        let f = SearchFixture([
            ["title": "phone"],
            ["title": "phone", "popularity": 5],
            ["title": "phone", "popularity": 50],
            ["title": "phone", "popularity": "n/a"],
        ], settings: settings())
        XCTAssertEqual(f.ids("phone"), ["2", "1", "0", "3"])
        var ascending = settings()
        ascending.customRanking = [CustomRankingCriterion(attribute: "popularity", ascending: true)]
        let g = SearchFixture(f.records.map(\.1), settings: ascending)
        XCTAssertEqual(g.ids("phone"), ["1", "2", "0", "3"])
        XCTAssertEqual(g.ids(""), ["1", "2", "0", "3"], "empty query ranks by custom ranking too")
    }

    func testConfiguredOrderIsHonoured() {
        var s = settings()
        s.ranking = [.attribute, .typo, .proximity, .exact, .custom]
        let records: [JSONObject] = [
            ["title": "nothing", "body": "hello", "popularity": 1],
            ["title": "hallo", "body": "nothing", "popularity": 1],
        ]
        XCTAssertEqual(SearchFixture(records, settings: s).ids("hello"), ["1", "0"])
        XCTAssertEqual(SearchFixture(records, settings: settings()).ids("hello"), ["0", "1"])
    }

    func testAscFirstIsAnExhaustiveSort() {
        var s = settings()
        s.ranking = [.asc("price")] + RankingCriterion.defaultRanking
        let f = SearchFixture([
            ["title": "tv", "price": 300, "popularity": 9],
            ["title": "tv tv", "price": 100, "popularity": 1],
            ["title": "a tv", "price": 200, "popularity": 5],
            ["title": "tv", "popularity": 99],
        ], settings: s)
        XCTAssertEqual(f.ids("tv"), ["1", "2", "0", "3"])
    }

    func testEqualPriorityAttributesAndNestedPaths() {
        let s = IndexSettings.with {
            $0.searchableAttributes = [SearchableAttribute(paths: ["title", "brand.name"]), SearchableAttribute(paths: ["tags"])]
        }
        let f = SearchFixture([
            ["title": "x", "brand": ["name": "x"], "tags": ["red", "apple"]],
            ["title": "x", "brand": ["name": "apple"], "tags": ["y"]],
            ["title": "apple", "brand": ["name": "y"], "tags": ["y"]],
        ], settings: s)
        XCTAssertEqual(f.ids("apple"), ["1", "2", "0"], "title and brand.name share a rank; tags after")
        XCTAssertEqual(f.nbHits("red apple"), 1, "words of an array are searchable")
    }

    func testEmptySearchableAttributesUsesRecordOrder() {
        let f = SearchFixture([
            ["b": "nothing", "a": "lamp"],
            ["a": "lamp", "b": "nothing"],
        ])
        XCTAssertEqual(f.ids("lamp"), ["1", "0"])
        XCTAssertEqual(f.nbHits("nothing lamp"), 2)
    }

    func testRestrictSearchableAttributes() {
        let f = SearchFixture([
            ["title": "lamp", "body": "desk"],
            ["title": "desk", "body": "lamp"],
        ], settings: settings())
        XCTAssertEqual(f.ids("lamp", ["restrictSearchableAttributes": ["body"]]), ["1"])
    }
}
