import QuarryJSON
import QuarrySearchContract
import XCTest

/// Match ranges are kept in UTF-8 and rendered in each connection's encoding.
final class HitRangesTests: XCTestCase {
    func testOneHitRendersInEveryEncoding() {
        // "😀 Café 🎉 crème": 😀 and 🎉 are 4 bytes, 2 UTF-16 units, 1 code point; é and è 2 bytes.
        let text = "😀 Café 🎉 crème"
        var ranges = HitRanges()
        ranges.add(path: "text", utf8: [(5, 10), (16, 22)], in: text)
        ranges.add(path: "tags.0", utf8: [(0, 3)], in: "abc")
        let hit = SearchHit(record: ["objectID": "1", "text": .string(text)], ranges: ranges)
        XCTAssertEqual(hit.json(in: .utf8)["_matchRanges"], ["text": [[5, 10], [16, 22]], "tags.0": [[0, 3]]])
        XCTAssertEqual(hit.json(in: .utf16)["_matchRanges"], ["text": [[3, 7], [11, 16]], "tags.0": [[0, 3]]])
        XCTAssertEqual(hit.json(in: .utf32)["_matchRanges"], ["text": [[2, 6], [9, 14]], "tags.0": [[0, 3]]])
    }

    func testRangesSitBeforeRankingInfoAndAlwaysAppear() {
        let ranked = SearchHit(record: ["objectID": "1", "_highlightResult": [:], "_rankingInfo": ["nbTypos": 0]], ranges: HitRanges())
        XCTAssertEqual(Array(ranked.json(in: .utf16).keys), ["objectID", "_highlightResult", "_matchRanges", "_rankingInfo"])
        let plain = SearchHit(record: ["objectID": "1"], ranges: HitRanges())
        XCTAssertEqual(plain.json(in: .utf8)["_matchRanges"], [:])
    }

    func testAResponseRendersItsHitsAndTypedCounts() {
        var ranges = HitRanges()
        ranges.add(path: "name", utf8: [(0, 2)], in: "été")
        var response = SearchResponse(hits: [SearchHit(record: ["objectID": "1"], ranges: ranges)], nbHits: 1, page: 0, nbPages: 1,
                                      hitsPerPage: 20, processingTimeMS: 1, query: "é")
        response.facets = [FacetCounts(attribute: "brand", values: [("b", 2), ("a", 1)])]
        response.facetsStats = [FacetStats(attribute: "price", min: 1, max: 2.5, avg: 1.75, sum: 3.5)]
        response.exhaustiveFacetsCount = true
        let json = response.json(in: .utf32)
        XCTAssertEqual(json["hits"]?.arrayValue?.first?["_matchRanges"], ["name": [[0, 1]]])
        XCTAssertEqual(json["facets"], ["brand": ["b": 2, "a": 1]])
        XCTAssertEqual(json["facets_stats"], ["price": ["min": 1, "max": 2.5, "avg": 1.75, "sum": 3.5]])
        XCTAssertEqual(json["exhaustive"], ["nbHits": true, "typo": true, "facetsCount": true])
        XCTAssertEqual(response.counts(of: "brand")?.values.map(\.value), ["b", "a"])
        XCTAssertNil(response.counts(of: "color"))
    }
}
