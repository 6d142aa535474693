import QuarryEngine
import QuarryJSON
import QuarryTypesense
import XCTest
import QuarrySearchContract

/// `HitHighlighter` on real Typesense hits (`HighlightFixtures`), against the embedded engine:
/// 1. Where both engines match the same words, `_highlightResult`, `_snippetResult`, `_matchRanges`
///    and the other encodings' ranges are equal member for member: prefixes (only the typed part),
///    typos, arrays, nested objects, numbers, accents and emoji (UTF-8, UTF-16, code points),
///    partial match levels, snippets, static layouts, non-searchable attributes and
///    `restrictSearchableAttributes` (values Typesense does not search are matched as the engine does).
/// 2. Where Typesense matches what the engine does not, the output shows Typesense's match with the
///    engine's rendering, and where the engine matches what Typesense does not, the word stays
///    unmarked; each difference is named: first-letter typo, marks across symbols, a word joined
///    over a hyphen, full-width letters, a word inside a hyphenated one.
/// 3. The legacy `highlights` array lists at most 5 elements of an array field, so the `highlight`
///    object is the one to read.
/// 4. The captured documents are what `DocumentBuilder` builds, so element i is the i-th leaf.
final class HighlightHitTests: XCTestCase {
    struct Case {
        let settings: IndexSettings
        let parameters: SearchParameters
        let records: [JSONObject]
        let hits: [JSONObject]
    }

    static let members = ["_highlightResult", "_snippetResult", "_matchRanges", "_matchRangesUTF8", "_matchRangesUTF32"]

    func fixture(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Case {
        let all = try XCTUnwrap(JSONParser.parse(HighlightFixtures.json).arrayValue)
        let object = try XCTUnwrap(all.compactMap(\.objectValue).first { $0["name"]?.stringValue == name }, name, file: file, line: line)
        let settings = try IndexSettings(json: object["settings"]?.objectValue ?? [:])
        let parameters = try SearchParameters(json: object["params"]?.objectValue ?? [:], settings: settings)
        return Case(settings: settings, parameters: parameters,
                    records: (object["records"]?.arrayValue ?? []).compactMap(\.objectValue),
                    hits: (object["hits"]?.arrayValue ?? []).compactMap(\.objectValue))
    }

    /// By objectID: what HitHighlighter makes of each Typesense hit.
    func ours(_ c: Case) -> [String: JSONObject] {
        let highlighter = HitHighlighter(settings: c.settings)
        var result: [String: JSONObject] = [:]
        for hit in c.hits {
            guard let id = hit["document"]?["id"]?.stringValue,
                  let record = c.records.first(where: { $0["objectID"]?.stringValue == id }) else { continue }
            result[id] = highlighter.wireMembers(record: record, typesenseHit: hit, parameters: c.parameters)
        }
        return result
    }

    /// By objectID: the embedded engine's hits for the same records and parameters.
    func engine(_ c: Case) throws -> [String: JSONObject] {
        let pairs = c.records.enumerated().map { (DocID($0.offset), $0.element) }
        let index = SearchIndex.build(settings: c.settings, records: pairs)
        let response = try index.search(c.parameters, records: InMemoryRecords(pairs))
        var result: [String: JSONObject] = [:]
        for hit in response.hits { if let id = hit["objectID"]?.stringValue { result[id] = hit.wireJSON } }
        return result
    }

    func assertSameAsEngine(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let c = try fixture(name, file: file, line: line)
        let ours = ours(c), engine = try engine(c)
        XCTAssertFalse(ours.isEmpty, "\(name): Typesense found nothing", file: file, line: line)
        XCTAssertEqual(Set(ours.keys), Set(engine.keys), "\(name): both engines hit the same records", file: file, line: line)
        for (id, members) in ours {
            for key in Self.members {
                XCTAssertEqual(members[key], engine[id]?[key], "\(name) #\(id) \(key)", file: file, line: line)
            }
        }
    }

    // MARK: 1. Same words, same output

    func testPrefixInArraysNestedObjectsAndSnippets() throws { try assertSameAsEngine("prefixArraysNested") }
    func testPrefixWithAccentAndEmojiRanges() throws { try assertSameAsEngine("prefixAccent") }
    func testTwoWordsWithAccentsAndSnippet() throws { try assertSameAsEngine("twoWordsAccents") }
    func testTypoMarksTheWholeWord() throws { try assertSameAsEngine("typo") }
    func testEveryElementOfALongArray() throws { try assertSameAsEngine("longArray") }
    func testCombiningAccentsAndAstralEmoji() throws { try assertSameAsEngine("emojiAndAccents") }
    func testPrefixInsideAHyphenatedWord() throws { try assertSameAsEngine("prefixInsideSymbols") }
    func testPartialMatchLevel() throws { try assertSameAsEngine("partialLevel") }
    func testNumberLeaf() throws { try assertSameAsEngine("number") }
    func testStaticLayoutAndNonSearchableAttributes() throws { try assertSameAsEngine("staticLayout") }
    func testRestrictedSearchableAttributes() throws { try assertSameAsEngine("restricted") }
    func testLeafInTwoSlots() throws { try assertSameAsEngine("twoSlotsOneLeaf") }
    func testEmptyQueryMarksNothing() throws { try assertSameAsEngine("emptyQuery") }
    /// Typesense, like the engine, marks every typo variant of a word, in every field; how much of a
    /// variant to mark stays the engine's (`<em>appl</em>y` for the prefix "apple", where Typesense marks "apply").
    func testEveryTypoVariant() throws { try assertSameAsEngine("typoVariants") }

    func testEncodingsOfTheSharedRanges() throws {
        let c = try fixture("prefixAccent")
        let members = try XCTUnwrap(ours(c)["1"])
        // "Café crème 😀 brûlée": "crè" after "Café " is bytes 6..<10, units 5..<8, code points 5..<8.
        XCTAssertEqual(members["_matchRanges"]?["title"], [[5, 8]])
        XCTAssertEqual(members["_matchRangesUTF8"]?["title"], [[6, 10]])
        XCTAssertEqual(members["_matchRangesUTF32"]?["title"], [[5, 8]])
        XCTAssertNil(members["_matchRangesUTF16"], "the negotiated encoding is _matchRanges itself")
        XCTAssertEqual(members["_highlightResult"]?["title"]?["value"], "Café <em>crè</em>me 😀 brûlée")
        XCTAssertEqual(members["_highlightResult"]?["title"]?["fullyHighlighted"], false)
    }

    // MARK: 2. Typesense matches what the engine does not

    /// Difference: a first-letter typo costs Typesense 1 and the engine 2, so only Typesense finds
    /// "giver" for "jiver"; the marked word stands for the nearest query word.
    func testFirstLetterTypo() throws {
        let c = try fixture("firstLetterTypo")
        XCTAssertTrue(try engine(c).isEmpty)
        let h = try XCTUnwrap(ours(c)["3"]?["_highlightResult"])
        XCTAssertEqual(h["tags"]?.arrayValue?[0]["value"], "<em>giver</em>")
        XCTAssertEqual(h["tags"]?.arrayValue?[0]["matchedWords"], ["jiver"])
        XCTAssertEqual(h["tags"]?.arrayValue?[0]["matchLevel"], "full")
        XCTAssertEqual(h["tags"]?.arrayValue?[1]["matchLevel"], "none")
        XCTAssertEqual(h["name"]?["matchLevel"], "none")
    }

    /// Difference: Typesense reads "boom-and-bust" as one token, so the prefix "boomand" matches and
    /// its mark spans the hyphen; the engine's words are "boom", "and", "bust" and nothing matches.
    func testMarkAcrossSymbols() throws {
        let c = try fixture("markAcrossSymbols")
        XCTAssertTrue(try engine(c).isEmpty)
        let members = try XCTUnwrap(ours(c)["4"])
        let title = members["_highlightResult"]?["title"]
        XCTAssertEqual(title?["value"], "<em>boom</em>-<em>an</em>d-bust cycles")
        XCTAssertEqual(title?["matchedWords"], ["boomand"])
        XCTAssertEqual(title?["matchLevel"], "full")
        XCTAssertEqual(members["_matchRanges"]?["title"], [[0, 4], [5, 7]])
    }

    /// Difference: "email" finds "e-mail" (one Typesense token); both engine words are marked.
    func testWordJoinedOverAHyphen() throws {
        let c = try fixture("joinedSymbols")
        XCTAssertTrue(try engine(c).isEmpty)
        let tags = try XCTUnwrap(ours(c)["4"]?["_highlightResult"]?["tags"]?.arrayValue)
        XCTAssertEqual(tags[0]["value"], "<em>e</em>-<em>mail</em>")
        XCTAssertEqual(tags[0]["fullyHighlighted"], true)
        XCTAssertEqual(tags[0]["matchedWords"], ["email"])
        XCTAssertEqual(tags[1]["value"], "l'été")
    }

    /// Difference: Typesense folds full-width "ＡＰＰＬＥ" to "apple", the engine's normaliser does not;
    /// everything else in the value is as the engine renders it.
    func testFullWidthLetters() throws {
        let c = try fixture("emojiSeparated")
        let ours = try XCTUnwrap(ours(c)["6"]), engine = try XCTUnwrap(try engine(c)["6"])
        XCTAssertEqual(engine["_highlightResult"]?["emoji"]?["value"], "🍎 <em>apple</em>🍎pie ＡＰＰＬＥ")
        XCTAssertEqual(ours["_highlightResult"]?["emoji"]?["value"], "🍎 <em>apple</em>🍎pie <em>ＡＰＰＬＥ</em>")
        XCTAssertEqual(ours["_highlightResult"]?["emoji"]?["matchedWords"], ["apple"])
        // 🍎 is 2 UTF-16 units and 4 bytes; each full-width letter 1 unit and 3 bytes.
        XCTAssertEqual(ours["_matchRanges"]?["emoji"], [[3, 8], [14, 19]])
        XCTAssertEqual(ours["_matchRangesUTF8"]?["emoji"], [[5, 10], [18, 33]])
        XCTAssertEqual(ours["_matchRangesUTF32"]?["emoji"], [[2, 7], [12, 17]])
        XCTAssertEqual(ours["_highlightResult"]?["title"], engine["_highlightResult"]?["title"])
    }

    /// Difference: Typesense reads "e-mail" as the one word "email", which "mail" does not match, so
    /// it leaves the element unmarked where the engine marks `e-<em>mail</em>`.
    func testWordTheEngineMatchesAndTypesenseDoesNot() throws {
        let c = try fixture("unmarkedByTypesense")
        let ours = try XCTUnwrap(ours(c)["9"]), engine = try XCTUnwrap(try engine(c)["9"])
        XCTAssertEqual(engine["_highlightResult"]?["tags"]?.arrayValue?[0]["value"], "e-<em>mail</em>")
        XCTAssertEqual(ours["_highlightResult"]?["tags"]?.arrayValue?[0]["value"], "e-mail")
        XCTAssertEqual(ours["_highlightResult"]?["tags"]?.arrayValue?[0]["matchLevel"], "none")
        XCTAssertNil(ours["_matchRanges"]?["tags.0"])
        XCTAssertEqual(ours["_highlightResult"]?["text"], engine["_highlightResult"]?["text"])
    }

    // MARK: 3. The legacy array

    /// The `highlights` array stops after 5 matched elements (x10, x11, x13 are left out).
    func testLegacyHighlightsListAtMostFiveElements() throws {
        let c = try fixture("longArray")
        let hit = try XCTUnwrap(c.hits.first)
        let record = try XCTUnwrap(c.records.first)
        let legacy = HitHighlighter(settings: c.settings)
            .wireMembers(record: record, highlights: hit["highlights"]?.arrayValue ?? [], parameters: c.parameters)
        let list = try XCTUnwrap(legacy["_highlightResult"]?["list"]?.arrayValue)
        XCTAssertEqual(list.map { $0["matchLevel"]?.stringValue ?? "" }.filter { $0 == "full" }.count, 5)
        XCTAssertEqual(list[9]["value"], "x10 apple")
        let full = try XCTUnwrap(ours(c)["5"]?["_highlightResult"]?["list"]?.arrayValue)
        XCTAssertEqual(full.filter { $0["matchLevel"] == "full" }.count, 8)
    }

    // MARK: 4. Fields as DocumentBuilder fills them

    func testCapturedDocumentsAreDocumentBuilders() throws {
        let all = try XCTUnwrap(JSONParser.parse(HighlightFixtures.json).arrayValue)
        for entry in all {
            let name = entry["name"]?.stringValue ?? "?"
            let c = try fixture(name)
            let builder = DocumentBuilder(settings: c.settings)
            for hit in c.hits {
                let document = try XCTUnwrap(hit["document"]?.objectValue)
                let record = try XCTUnwrap(c.records.first { $0["objectID"] == document["id"] })
                let built = try builder.document(for: record)
                for (field, value) in document where field.hasPrefix("s_") {
                    XCTAssertEqual(built[field], value, "\(name) \(field)")
                }
                XCTAssertEqual(built.keys.filter { $0.hasPrefix("s_") }.count, document.keys.filter { $0.hasPrefix("s_") }.count, name)
            }
        }
    }
}
