import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// What a hit carries:
/// 1. `_highlightResult` marks only the typed part of a prefix (`<em>Clo</em>oney`), mirrors arrays and
///    nested objects, reports matchLevel / matchedWords / fullyHighlighted, honours custom tags.
/// 2. `_matchRanges` gives spans in the original value in UTF-16 or UTF-8 units, also past emoji and accents.
/// 3. `_snippetResult` keeps N words around the match with the ellipsis.
/// 4. attributesToRetrieve, objectID, pagination (page, nbPages, paginationLimitedTo) and parameter errors.
final class SearchHitTests: XCTestCase {
    func testPrefixHighlightMarksOnlyTheTypedPart() throws {
        let f = SearchFixture([["name": "George Clooney"]])
        let hit = try XCTUnwrap(f.search("clo")?.hits.first)
        let result = hit["_highlightResult"]?["name"]
        XCTAssertEqual(result?["value"], "George <em>Clo</em>oney")
        XCTAssertEqual(result?["matchLevel"], "full")
        XCTAssertEqual(result?["matchedWords"], ["clo"])
        XCTAssertEqual(result?["fullyHighlighted"], false)
    }

    func testMatchLevelsAndNestedMirror() throws {
        let f = SearchFixture([["title": "Red apple", "tags": ["fruit", "apple pie"], "meta": ["origin": "Apple farm", "n": 3]]])
        let hit = try XCTUnwrap(f.search("apple red", ["highlightPreTag": "[", "highlightPostTag": "]"])?.hits.first)
        let h = try XCTUnwrap(hit["_highlightResult"])
        XCTAssertEqual(h["title"]?["value"], "[Red] [apple]")
        XCTAssertEqual(h["title"]?["matchLevel"], "full")
        XCTAssertEqual(h["title"]?["fullyHighlighted"], true)
        XCTAssertEqual(h["tags"]?.arrayValue?[0]["matchLevel"], "none")
        XCTAssertEqual(h["tags"]?.arrayValue?[1]["value"], "[apple] pie")
        XCTAssertEqual(h["tags"]?.arrayValue?[1]["matchLevel"], "partial")
        XCTAssertEqual(h["meta"]?["origin"]?["value"], "[Apple] farm")
        XCTAssertEqual(hit["_matchRanges"]?["tags.1"], [[0, 5]])
        XCTAssertEqual(hit["_matchRanges"]?["meta.origin"], [[0, 5]])
    }

    func testTypoHighlightMarksTheWholeWord() throws {
        let f = SearchFixture([["name": "Michael Jackson"]])
        let hit = try XCTUnwrap(f.search("mickael")?.hits.first)
        XCTAssertEqual(hit["_highlightResult"]?["name"]?["value"], "<em>Michael</em> Jackson")
    }

    func testMatchRangesInEveryEncoding() throws {
        let text = "😀 Café 🎉 crème"
        let f = SearchFixture([["text": .string(text)]])
        let utf16 = try XCTUnwrap(f.search("cafe creme")?.hits.first?["_matchRanges"]?["text"])
        // 😀 is two UTF-16 units: "Café" spans 3..<7, "crème" after "🎉 " starts at 11.
        XCTAssertEqual(utf16, [[3, 7], [11, 16]])
        let parameters = try SearchParameters(json: ["query": "cafe creme"], settings: f.settings)
        // One hit renders its ranges in whichever encoding the connection negotiated.
        let hit = try XCTUnwrap(try f.index.search(parameters, records: InMemoryRecords(f.records)).hits.first)
        // In UTF-8: 😀 is 4 bytes, é 2, 🎉 4, è 2.
        XCTAssertEqual(hit.json(in: .utf8)["_matchRanges"]?["text"], [[5, 10], [16, 22]])
        // In UTF-16: 😀 and 🎉 are two units each.
        XCTAssertEqual(hit.json(in: .utf16)["_matchRanges"]?["text"], [[3, 7], [11, 16]])
        // In code points every character is one: "Café" at 2..<6, "crème" at 9..<14.
        XCTAssertEqual(hit.json(in: .utf32)["_matchRanges"]?["text"], [[2, 6], [9, 14]])
        let prefix = try XCTUnwrap(f.search("crè")?.hits.first?["_matchRanges"]?["text"])
        XCTAssertEqual(prefix, [[11, 14]])
        XCTAssertEqual(f.search("crè")?.hits.first?["_highlightResult"]?["text"]?["value"], "😀 Café 🎉 <em>crè</em>me")
    }

    func testSnippet() throws {
        let body = "one two three four five six seven eight nine ten eleven twelve"
        let f = SearchFixture([["body": .string(body)]])
        let hit = try XCTUnwrap(f.search("seven", ["attributesToSnippet": ["body:3"]])?.hits.first)
        XCTAssertEqual(hit["_snippetResult"]?["body"]?["value"], "… six <em>seven</em> eight …")
        XCTAssertEqual(hit["_snippetResult"]?["body"]?["matchLevel"], "full")
        let start = try XCTUnwrap(f.search("one", ["attributesToSnippet": "body:2", "snippetEllipsisText": "..."])?.hits.first)
        XCTAssertEqual(start["_snippetResult"]?["body"]?["value"], "<em>one</em> two ...")
    }

    func testRetrieveAndRankingInfo() throws {
        let f = SearchFixture([["objectID": "a1", "name": "lamp", "price": 10]])
        let hit = try XCTUnwrap(f.search("lamp", ["attributesToRetrieve": ["price"], "getRankingInfo": true])?.hits.first)
        XCTAssertEqual(hit["objectID"], "a1")
        XCTAssertEqual(hit["price"], 10)
        XCTAssertNil(hit["name"])
        XCTAssertEqual(hit["_rankingInfo"]?["nbTypos"], 0)
        XCTAssertEqual(hit["_rankingInfo"]?["words"], 1)
        XCTAssertEqual(hit["_rankingInfo"]?["nbExactWords"], 1)
    }

    func testPagination() throws {
        let f = SearchFixture((0..<25).map { ["name": .string("item \($0)"), "rank": JSON($0)] }, settings: IndexSettings.with {
            $0.customRanking = [CustomRankingCriterion(attribute: "rank", ascending: true)]
        })
        let page1 = try XCTUnwrap(f.search("item", ["page": 1, "hitsPerPage": 10]))
        XCTAssertEqual(page1.nbHits, 25)
        XCTAssertEqual(page1.nbPages, 3)
        XCTAssertEqual(page1.hits.compactMap { $0["objectID"]?.stringValue }, (10..<20).map { "\($0)" })
        let last = try XCTUnwrap(f.search("item", ["page": 2, "hitsPerPage": 10]))
        XCTAssertEqual(last.hits.count, 5)
        let limited = try XCTUnwrap(f.search("item", ["page": 1, "hitsPerPage": 10, "paginationLimitedTo": 15]))
        XCTAssertEqual(limited.nbPages, 2)
        XCTAssertEqual(limited.hits.count, 5)
        XCTAssertEqual(limited.nbHits, 25)
        XCTAssertEqual(f.search("item", ["page": 5, "hitsPerPage": 10])?.hits.count, 0)
        XCTAssertEqual(f.search("item", ["page": .int(Int64.max), "hitsPerPage": 10])?.hits.count, 0)
        let json = page1.json()
        XCTAssertEqual(json["page"], 1)
        XCTAssertEqual(json["hitsPerPage"], 10)
        XCTAssertEqual(json["query"], "item")
        XCTAssertNotNil(json["processingTimeMS"]?.intValue)
    }

    func testWrongParameterTypesAreNamed() {
        let settings = IndexSettings()
        XCTAssertThrowsError(try SearchParameters(json: ["page": -1], settings: settings)) {
            XCTAssertEqual($0 as? BackendError, .invalidParameter(name: "page", expected: "a non-negative integer"))
        }
        XCTAssertThrowsError(try SearchParameters(json: ["query": 3], settings: settings)) {
            XCTAssertEqual($0 as? BackendError, .invalidParameter(name: "query", expected: "a string"))
        }
        XCTAssertThrowsError(try SearchParameters(json: ["typoTolerance": "maybe"], settings: settings))
        XCTAssertNoThrow(try SearchParameters(json: ["unknownKey": 1, "page": "2"], settings: settings))
    }
}
