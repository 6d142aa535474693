import QuarryEngine
import QuarryJSON
import QuarryText
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

/// Reading Typesense's marks:
/// 1. Stripping U+E000/U+E001 gives UTF-8 spans in the stored value, past accents and emoji.
/// 2. A snippet (no full value) is located in the stored value; text that is not the value gives nil.
/// 3. Both hit formats: the `highlight` object (arrays and single values) and the legacy
///    `highlights` array (`indices` + `values`, or `value`).
/// 4. A marked word no query word matches by the engine's rules stands for the nearest one.
final class HighlightMarksTests: XCTestCase {
    func testSpansAreUTF8OffsetsInTheStoredValue() throws {
        let spans = try XCTUnwrap(HighlightMarks.spans("😀 Caf\u{E000}é\u{E001} \u{E000}crè\u{E001}me", in: "😀 Café crème"))
        // 😀 is 4 bytes, é and è 2 each.
        XCTAssertEqual(spans.map { [$0.0, $0.1] }, [[8, 10], [11, 15]])
        XCTAssertEqual(HighlightMarks.spans("plain", in: "plain")?.count, 0)
    }

    func testSnippetIsLocatedAndForeignTextRefused() throws {
        let spans = try XCTUnwrap(HighlightMarks.spans("two \u{E000}three\u{E001}", in: "one two three four"))
        XCTAssertEqual(spans.map { [$0.0, $0.1] }, [[8, 13]])
        XCTAssertNil(HighlightMarks.spans("\u{E000}other\u{E001} text", in: "one two three four"))
    }

    func testHighlightObjectAndLegacyArray() throws {
        let hit: JSONObject = [
            "highlight": [
                "s_tags": [["value": "fruit", "matched_tokens": []], ["value": "\u{E000}apple\u{E001} pie", "matched_tokens": ["apple"]]],
                "s_title": ["snippet": "\u{E000}Red\u{E001}", "matched_tokens": ["Red"]],
            ],
            "highlights": [["field": "s_tags", "indices": [1], "values": ["legacy"]]],
        ]
        let marks = HighlightMarks(hit: hit)
        XCTAssertEqual(marks.tagged["s_tags"]?[1], "\u{E000}apple\u{E001} pie", "the highlight object wins")
        XCTAssertEqual(marks.tagged["s_tags"]?[0], "fruit")
        XCTAssertEqual(marks.tagged["s_title"]?[0], "\u{E000}Red\u{E001}")

        let legacy = HighlightMarks(highlights: [
            ["field": "s_tags", "indices": [2, 5], "values": ["\u{E000}a\u{E001}", "\u{E000}b\u{E001}"]],
            ["field": "s_title", "value": "\u{E000}t\u{E001}"],
        ])
        XCTAssertEqual(legacy.tagged["s_tags"]?[5], "\u{E000}b\u{E001}")
        XCTAssertNil(legacy.tagged["s_tags"]?[0])
        XCTAssertEqual(legacy.tagged["s_title"]?[0], "\u{E000}t\u{E001}")
    }

    func testMarkedWordStandsForTheNearestQueryWord() throws {
        let settings = IndexSettings()
        let words = QueryWords.parse(try SearchParameters(json: ["query": "jiver taker"], settings: settings))
        let giver = Array("giver".utf8)
        XCTAssertEqual(HighlightTokens.queryWords(of: giver[...], words: words), 0b01)
        let matches = HighlightTokens.matches(in: "giver taker", spans: [(0, 5)], words: words)
        XCTAssertEqual(matches.map(\.isMatched), [true, false], "taker is unmarked: Typesense did not mark it")
        XCTAssertEqual(matches[0].words, 0b01)
    }
}
