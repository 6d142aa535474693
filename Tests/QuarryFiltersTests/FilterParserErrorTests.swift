import QuarryFilters
import XCTest

/// The `filters` string, invalid inputs: each is refused with the exact
/// position (a 0-based character offset) and message a user would see.
final class FilterParserErrorTests: XCTestCase {
    private let cases: [(input: String, position: Int, message: String)] = [
        // Parentheses.
        ("(a:1 OR a:2", 11, "missing ')'"),
        ("a:1 AND (b:2 OR c:3", 19, "missing ')'"),
        ("a:1)", 3, "unexpected ')'"),
        ("(a:1))", 5, "unexpected ')'"),
        ("()", 1, "expected a filter after '('"),
        ("(a:1 b:2)", 5, "expected 'AND', 'OR' or ')'"),
        (")", 0, "expected a filter"),
        // Missing or misplaced values.
        ("a:", 2, "expected a value after ':'"),
        ("category:  AND b:1", 11, "expected a value after ':'"),
        ("a::b", 2, "expected a value after ':'"),
        ("a:(b)", 2, "expected a value after ':'"),
        (":b", 0, "expected an attribute name before ':'"),
        ("\"\":b", 0, "empty attribute name"),
        ("a:b c:d", 4, "expected 'AND', 'OR' or end of input"),
        ("a:b:c", 3, "expected 'AND', 'OR' or end of input"),
        // Dangling and doubled operators.
        ("a:1 AND", 7, "expected a filter after 'AND'"),
        ("a:1 OR", 6, "expected a filter after 'OR'"),
        ("AND a:1", 0, "expected a filter"),
        ("a:1 AND AND b:2", 8, "expected a filter after 'AND'"),
        ("NOT", 3, "expected a filter after 'NOT'"),
        ("NOT NOT a:1", 4, "expected a filter after 'NOT'"),
        ("a:1 AND NOT", 11, "expected a filter after 'NOT'"),
        ("TO", 0, "expected a filter"),
        // Mixing operators and kinds (Algolia's CNF rule).
        ("a:1 OR b:2 AND c:3", 11, "cannot mix AND and OR without parentheses"),
        ("a:1 AND b:2 OR c:3", 12, "cannot mix AND and OR without parentheses"),
        ("(a:1 AND b:2) OR c:3", 0, "OR cannot join a group that contains AND"),
        ("c:3 OR (a:1 AND b:2)", 7, "OR cannot join a group that contains AND"),
        ("NOT (a:1 OR a:2)", 4, "NOT applies to one filter, not to a group"),
        ("(a:1 OR price > 5)", 8, "cannot mix facet and numeric filters in one OR"),
        ("price > 5 OR _tags:x", 13, "cannot mix numeric and tag filters in one OR"),
        ("a:1 OR (b:1 OR p < 2)", 15, "cannot mix facet and numeric filters in one OR"),
        ("a:1 OR (p < 2 OR p > 5)", 7, "cannot mix facet and numeric filters in one OR"),
        // Numbers.
        ("a:1 TO", 6, "expected a number after 'TO'"),
        ("a:1 TO x", 7, "expected a number after 'TO'"),
        ("a:1 TO \"5\"", 7, "expected a number after 'TO'"),
        ("a:x TO 5", 2, "expected a number before 'TO'"),
        ("a:\"1\" TO 5", 2, "expected a number before 'TO'"),
        ("a:1 TO 5 TO 6", 9, "expected 'AND', 'OR' or end of input"),
        ("price < abc", 8, "expected a number after '<'"),
        ("price <", 7, "expected a number after '<'"),
        ("price >= \"10\"", 9, "expected a number after '>='"),
        ("price != AND", 9, "expected a number after '!='"),
        ("price < 5 TO 6", 10, "expected 'AND', 'OR' or end of input"),
        ("price > 1e999", 8, "number out of range"),
        ("n:-1e400", 2, "number out of range"),
        ("price ! 5", 7, "expected '=' after '!'"),
        // Unterminated quotes.
        ("a:\"abc", 2, "unterminated string"),
        ("\"a", 0, "unterminated string"),
        ("a:'x", 2, "unterminated string"),
        ("a:\"x\\", 2, "unterminated string"),
        ("a:\"x\\\"", 2, "unterminated string"),
        // Positions count Unicode scalars, not bytes.
        ("città:é AND", 11, "expected a filter after 'AND'"),
        ("a:\"x\" AND \u{301}(", 11, "expected 'AND', 'OR' or end of input"),  // the mark does not hide '('
        ("a:\"👍🏽\" b", 7, "expected 'AND', 'OR' or end of input"),
    ]

    func testEveryInvalidInputIsRefusedWithPositionAndMessage() {
        XCTAssertGreaterThanOrEqual(cases.count, 25)
        for (input, position, message) in cases {
            do {
                let expression = try FilterParser.parse(input)
                XCTFail("\(input) parsed as \(expression)")
            } catch {
                XCTAssertEqual(error, FilterSyntaxError(position: position, message: message), input)
            }
        }
    }

    func testNestingIsBounded() throws {
        let nested = { (depth: Int) in String(repeating: "(", count: depth) + "a:1" + String(repeating: ")", count: depth) }
        XCTAssertEqual(try FilterParser.parse(nested(32)), FilterExpression(.facet("a", 1)))
        XCTAssertThrowsError(try FilterParser.parse(nested(100_000))) { error in
            XCTAssertEqual(error as? FilterSyntaxError,
                           FilterSyntaxError(position: 32, message: "too many nested parentheses (at most 32)"))
        }
    }

    func testDescriptionSaysWhatAndWhere() {
        XCTAssertEqual(
            FilterSyntaxError(position: 14, message: "expected a value after ':'").description,
            "expected a value after ':' at 14")
        do {
            _ = try FilterParser.parse("category:Book AND price:")
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error.description, "expected a value after ':' at 24")
        }
    }
}
