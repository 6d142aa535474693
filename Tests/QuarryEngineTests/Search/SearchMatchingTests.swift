import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Matching as the user types:
/// 1. Algolia's prefix table over five sentences (`j`, `je b`, `jet b`) under each queryType.
/// 2. Case, accents and punctuation are not typos.
/// 3. A typo on the first letter counts double ("Tickael" is not "Michael").
/// 4. The 4 / 8 letter thresholds for one and two typos, and their parameters.
/// 5. typoTolerance false / min / strict, numeric tokens, disabled words and attributes.
/// 6. Prefix and typo expansion are never capped: nbHits counts every match.
/// 7. A query of only emoji or symbols matches nothing and says so; a blank one matches everything.
final class SearchMatchingTests: XCTestCase {
    let sentences = SearchFixture(texts: [
        "Let's play Jenga tomorrow", "fighter jets", "Beef jerky", "Jack and Jill",
        "Jacqueline bought me a jet black iPhone",
    ])

    func testPrefixTable() {
        XCTAssertEqual(sentences.nbHits("j"), 5)
        XCTAssertEqual(sentences.nbHits("je b"), 0)
        XCTAssertEqual(sentences.ids("jet b"), ["4"])
        XCTAssertEqual(sentences.nbHits("je b", ["queryType": "prefixAll"]), 2)
        XCTAssertEqual(sentences.nbHits("j", ["queryType": "prefixNone"]), 0)
        XCTAssertEqual(sentences.nbHits("jet", ["queryType": "prefixNone"]), 1)
        XCTAssertEqual(sentences.nbHits("jet "), 1, "a trailing space ends the last word")
    }

    func testCaseAccentsAndPunctuationAreNotTypos() {
        let fixture = SearchFixture(texts: ["Crème Brûlée", "CAFÉ-au-lait", "Straße"])
        XCTAssertEqual(fixture.ids("creme brulee", ["typoTolerance": false]), ["0"])
        XCTAssertEqual(fixture.ids("café au lait", ["typoTolerance": false]), ["1"])
        XCTAssertEqual(fixture.ids("STRASSE", ["typoTolerance": false]), ["2"])
        XCTAssertEqual(fixture.ids("BRÛL", ["typoTolerance": false]), ["0"])
    }

    func testTypoOnFirstLetterCountsDouble() {
        let fixture = SearchFixture(texts: ["Michael Jackson", "Nichols"])
        XCTAssertEqual(fixture.nbHits("Tickael"), 0, "7 letters allow 1 typo; a first-letter typo costs 2")
        XCTAssertEqual(fixture.ids("Mickael"), ["0"])
        XCTAssertEqual(fixture.ids("Micheal"), ["0"], "a transposition is one typo")
    }

    func testTypoThresholds() {
        let fixture = SearchFixture(texts: ["cat", "dogs", "elephant"])
        XCTAssertEqual(fixture.nbHits("cot"), 0, "3 letters: no typo")
        XCTAssertEqual(fixture.ids("dogz"), ["1"], "4 letters: one typo")
        XCTAssertEqual(fixture.nbHits("doqz"), 0, "4 letters: not two")
        XCTAssertEqual(fixture.ids("elephent"), ["2"])
        XCTAssertEqual(fixture.ids("elefent"), [], "7 letters: one typo only")
        XCTAssertEqual(fixture.ids("elaphent"), ["2"], "8 letters: two typos")
        XCTAssertEqual(fixture.ids("elaphamt"), ["2"])
        XCTAssertEqual(fixture.ids("cot", ["minWordSizefor1Typo": 3]), ["0"])
        XCTAssertEqual(fixture.ids("dogz", ["minWordSizefor1Typo": 5]), [])
        XCTAssertEqual(fixture.ids("elaphamt", ["minWordSizefor2Typos": 9]), [])
    }

    func testTypoToleranceModes() {
        let fixture = SearchFixture(texts: ["hello world", "hallo world", "hellp world", "other"])
        XCTAssertEqual(fixture.nbHits("hello"), 3)
        XCTAssertEqual(fixture.ids("hello")[0], "0", "fewest typos first")
        XCTAssertEqual(fixture.nbHits("hello", ["typoTolerance": false]), 1)
        XCTAssertEqual(fixture.nbHits("hello", ["typoTolerance": "min"]), 1)
        XCTAssertEqual(fixture.nbHits("hellx", ["typoTolerance": "min"]), 2, "fewest typos is 1 here")
        XCTAssertEqual(fixture.nbHits("hello", ["typoTolerance": "strict"]), 3)
    }

    func testNumericTokensDisabledWordsAndAttributes() {
        let settings = IndexSettings.with {
            $0.searchableAttributes = [SearchableAttribute(paths: ["title"]), SearchableAttribute(paths: ["sku"])]
            $0.disableTypoToleranceOnAttributes = ["sku"]
        }
        let fixture = SearchFixture([
            ["title": "model 12345", "sku": "abcdefgh"],
            ["title": "other", "sku": "abcdefgx"],
        ], settings: settings)
        XCTAssertEqual(fixture.ids("12346"), ["0"])
        XCTAssertEqual(fixture.ids("12346", ["allowTyposOnNumericTokens": false]), [])
        XCTAssertEqual(fixture.ids("abcdefgh"), ["0"], "no typo tolerance in sku")
        XCTAssertEqual(fixture.ids("modal"), ["0"])
        XCTAssertEqual(fixture.ids("modal", ["disableTypoToleranceOnWords": ["modal"]]), [])
    }

    func testExpansionIsNotCapped() {
        let texts = (0..<3000).map { "m\($0)word item" }
        let fixture = SearchFixture(texts: texts)
        let response = fixture.search("m")
        XCTAssertEqual(response?.nbHits, 3000)
        XCTAssertEqual(response?.json()["exhaustive"]?["nbHits"], .bool(true))
        XCTAssertEqual(fixture.nbHits("m1"), 1111)
    }

    func testAQueryWithoutAWordMatchesNothing() {
        let fixture = SearchFixture(texts: ["pizza 🍕 night", "café naïve", "東京 tower"])
        for query in ["🍕", " ?! ", "🍕🍕 -"] {
            let response = fixture.search(query, ["facets": ["*"]])
            XCTAssertEqual(response?.nbHits, 0, query)
            XCTAssertEqual(response?.json()["queryHasNoWords"], .bool(true), query)
        }
        XCTAssertEqual(fixture.nbHits("   "), 3)
        XCTAssertNil(fixture.search("   ")?.json()["queryHasNoWords"])
        XCTAssertEqual(fixture.ids("pizza 🍕"), ["0"])
        XCTAssertEqual(fixture.ids("東京"), ["2"])
        XCTAssertNil(fixture.search("pizza 🍕")?.json()["queryHasNoWords"])
    }
}
