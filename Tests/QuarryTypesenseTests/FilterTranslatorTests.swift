import QuarryEngine
import QuarryFilters
@testable import QuarryTypesense
import XCTest

final class FilterTranslatorTests: XCTestCase {
    private let translator = FilterTranslator(collectionFields: ["n_price", "n_a_2Eb", "n_s", "lo_s", "hi_s", "_q_filter"])

    private func filterBy(_ text: String) throws -> TypesenseFilter {
        translator.translate(try FilterParser.parse(text))
    }

    func testNoClausesKeepEverything() {
        XCTAssertEqual(translator.translate(.all), .all)
    }

    func testFacetValuesAreMatchedThroughHexKeysNeverQuotedText() throws {
        let key = FilterKeys.facet("color", text: "Red`x")
        XCTAssertEqual(key, FilterKeys.facet("color", text: "red`X"), "facet keys ignore case")
        XCTAssertTrue(key.dropFirst().allSatisfy { $0.isHexDigit && !$0.isUppercase })
        XCTAssertEqual(try filterBy("color:\"Red`x\""), .filterBy("_q_filter:=[`\(key)`]"))
        XCTAssertEqual(try filterBy("NOT color:\"Red`x\""), .filterBy("_q_filter:!=[`\(key)`]"))
    }

    func testNumericFacetValuesAlsoMatchOtherSpellingsOfTheNumber() throws {
        let expected = "_q_filter:=[`\(FilterKeys.facet("size", text: "10"))`,`\(FilterKeys.facetNumber("size", 10))`]"
        XCTAssertEqual(try filterBy("size:10"), .filterBy(expected))
        XCTAssertEqual(FilterKeys.facetNumber("size", 10), FilterKeys.facetNumber("size", FacetText.number("10.0") ?? 0))
    }

    func testTagsAreCaseSensitive() throws {
        XCTAssertNotEqual(FilterKeys.tag("A"), FilterKeys.tag("a"))
        XCTAssertEqual(try filterBy("_tags:A"), .filterBy("_q_filter:=[`\(FilterKeys.tag("A"))`]"))
    }

    func testComparisonsAndTheirNegations() throws {
        let missing = "_q_filter:!=[`\(FilterKeys.hasNumber("price"))`]"
        XCTAssertEqual(try filterBy("price > 5"), .filterBy("n_price:>5"))
        XCTAssertEqual(try filterBy("price != 5"), .filterBy("(n_price:<5 || n_price:>5)"))
        XCTAssertEqual(try filterBy("NOT price > 5"), .filterBy("(n_price:<=5 || \(missing))"))
        XCTAssertEqual(try filterBy("price = 5"), .filterBy("_q_filter:=[`\(FilterKeys.number("price", 5))`]"))
        XCTAssertEqual(try filterBy("NOT price = 5"), .filterBy("_q_filter:!=[`\(FilterKeys.number("price", 5))`]"))
        XCTAssertEqual(try filterBy("NOT price != 5"), .filterBy("(n_price:=5 || \(missing))"))
        XCTAssertEqual(try filterBy("price:1 TO 2.5"), .filterBy("n_price:[1..2.5]"))
        XCTAssertEqual(try filterBy("NOT price:-1 TO 2"), .filterBy("(n_price:<-1 || n_price:>2 || \(missing))"))
        XCTAssertEqual(try filterBy("a.b < 0.5"), .filterBy("n_a_2Eb:<0.5"))
    }

    func testNegationsReadBoundsWhereDocumentsHoldSeveralNumbers() throws {
        let missing = "_q_filter:!=[`\(FilterKeys.hasNumber("s"))`]"
        let one = "_q_filter:!=[`\(FilterKeys.severalNumbers("s"))`]"
        XCTAssertEqual(try filterBy("NOT s > 5"), .filterBy("((n_s:<=5 && \(one)) || hi_s:<=5 || \(missing))"))
        XCTAssertEqual(try filterBy("NOT s < 5"), .filterBy("((n_s:>=5 && \(one)) || lo_s:>=5 || \(missing))"))
        XCTAssertEqual(try filterBy("NOT s != 5"), .filterBy("((n_s:=5 && \(one)) || (lo_s:=5 && hi_s:=5) || \(missing))"))
        XCTAssertEqual(
            try filterBy("NOT s:1 TO 2"), .filterBy("(((n_s:<1 || n_s:>2) && \(one)) || lo_s:>2 || hi_s:<1 || \(missing))"))
        XCTAssertEqual(try filterBy("s > 5"), .filterBy("n_s:>5"))
    }

    func testClausesAreParenthesisedOrsJoinedByAnd() throws {
        XCTAssertEqual(
            try filterBy("(price < 1 OR price > 9) AND _tags:x"),
            .filterBy("(n_price:<1 || n_price:>9) && _q_filter:=[`\(FilterKeys.tag("x"))`]"))
    }

    func testAtomsOnNumericPathsNoDocumentHoldsAreDecidedLocally() throws {
        XCTAssertEqual(try filterBy("absent > 1"), .none)
        XCTAssertEqual(try filterBy("NOT absent > 1"), .all)
        XCTAssertEqual(try filterBy("absent > 1 OR price > 1"), .filterBy("n_price:>1"))
        XCTAssertEqual(try filterBy("(NOT absent > 1 OR price > 1) AND price < 3"), .filterBy("n_price:<3"))
        XCTAssertEqual(try filterBy("price:5 TO 1"), .none, "an empty range matches nothing")
        XCTAssertEqual(try filterBy("NOT price:5 TO 1"), .all)
    }

    func testBoundsUseNotationsTypesenseParses() {
        XCTAssertEqual(FilterTranslator.bound(0.5), "0.5")
        XCTAssertEqual(FilterTranslator.bound(-3), "-3")
        XCTAssertEqual(FilterTranslator.bound(1e20), "1e+20")
        XCTAssertEqual(FilterTranslator.bound(1e-5), "1e-05")
        XCTAssertEqual(FilterTranslator.bound(1e300), "3.4028235e+38", "clamped to the largest float")
        XCTAssertEqual(FilterTranslator.bound(.leastNonzeroMagnitude), "0", "rounded to the nearest float, as Typesense stores values")
        XCTAssertNil(FilterTranslator.bound(.nan))
    }

    func testLongValuesHashToShortKeys() {
        let long = String(repeating: "é", count: 200)
        let key = FilterKeys.facet("color", text: long)
        XCTAssertLessThanOrEqual(key.utf8.count, FilterKeys.maxKeyLength)
        XCTAssertTrue(key.hasPrefix("hv"))
        XCTAssertNotEqual(key, FilterKeys.facet("color", text: long + "x"))
        XCTAssertEqual(key, FilterKeys.facet("color", text: long.uppercased()))
    }
}
