import QuarryJSON
import XCTest
@testable import QuarryMCP

final class ReplyBudgetTests: XCTestCase {
    func testKeepsTheLeadingHitsThatFit() {
        let hits: [JSON] = (0..<50).map { ["objectID": .string(String($0)), "text": .string(String(repeating: "x", count: 200))] }
        let (kept, omitted) = ReplyBudget.fit(hits, beside: ["index": "t"], within: 5_000)
        XCTAssertEqual(kept.count + omitted, 50)
        XCTAssertGreaterThan(kept.count, 10)
        XCTAssertLessThanOrEqual(JSONWriter.encode(.array(kept)).count, 5_000)
        XCTAssertEqual(kept.first, hits.first)
    }

    func testABoundedSearchResultStaysWithinItsBytesAndSaysHowToPage() {
        let hits: [JSON] = (0..<100).map { ["objectID": .string(String($0)), "text": .string(String(repeating: "y", count: 290))] }
        let result = ToolRunner.bounded(["index": "t", "nbHits": 100], hits: hits, bytes: 10_000,
                                        paging: .page(page: 0, hitsPerPage: 100))
        XCTAssertLessThanOrEqual(JSONWriter.encode(result).count, 10_000)
        let returned = result["returnedHits"]?.intValue ?? 0
        XCTAssertEqual(returned + (result["omittedHits"]?.intValue ?? 0), 100)
        XCTAssertTrue(result["note"]?.stringValue?.contains("hitsPerPage \(returned) and page 1") ?? false,
                      result["note"]?.stringValue ?? "no note")
    }

    func testLongFieldsBecomeASnippetAroundTheMatch() {
        let text = String(repeating: "word ", count: 200) + "ocean " + String(repeating: "word ", count: 200)
        let highlighted = String(repeating: "word ", count: 200) + "<em>ocean</em> " + String(repeating: "word ", count: 200)
        let hit: JSON = ["objectID": "1", "description": .string(text), "short": "kept",
                         "_highlightResult": ["description": ["value": .string(highlighted), "matchLevel": "full"]]]
        let compacted = HitCompaction.compact(hit)
        let snippet = compacted["description"]?.stringValue ?? ""
        XCTAssertTrue(snippet.contains("<em>ocean</em>"), snippet)
        XCTAssertLessThanOrEqual(snippet.count, HitCompaction.longString + 2)
        XCTAssertEqual(compacted["short"], "kept")
        XCTAssertNil(compacted["_highlightResult"])
    }

    func testTheTextSummaryIsCutAtALine() {
        let text = (1...500).map { "line \($0)" }.joined(separator: "\n")
        let short = ToolRunner.shortened(text)
        XCTAssertLessThanOrEqual(short.utf8.count, ToolRunner.textBytes + 3)
        XCTAssertTrue(short.hasPrefix("line 1\nline 2\n") && short.hasSuffix("\n…"), short)
        XCTAssertEqual(ToolRunner.shortened("one line"), "one line")
    }
}
