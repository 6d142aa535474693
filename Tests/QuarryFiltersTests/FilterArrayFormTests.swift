import QuarryFilters
import QuarryJSON
import XCTest

/// `facetFilters`, `numericFilters` and `tagFilters`:
/// 1. strings AND, nested arrays OR, a single string is one filter;
/// 2. `-` negates, `\-` is a literal minus, `_tags:` in facetFilters is a tag;
/// 3. the three parameters AND together, and with a parsed `filters` string;
/// 4. wrong shapes and bad elements are refused, naming the element.
final class FilterArrayFormTests: XCTestCase {
    func testFacetFilters() throws {
        XCTAssertEqual(
            try FilterExpression(facetFilters: [["a:1", "a:2"], "b:3"]),
            FilterExpression(clauses: [[.facet("a", 1), .facet("a", 2)], [.facet("b", 3)]]))
        XCTAssertEqual(try FilterExpression(facetFilters: "author:Stephen King"), FilterExpression(.facet("author", "Stephen King")))
        XCTAssertEqual(try FilterExpression(facetFilters: "genre:-comedy"), FilterExpression(.facet("genre", "comedy", negated: true)))
        XCTAssertEqual(try FilterExpression(facetFilters: "genre:\\-comedy"), FilterExpression(.facet("genre", "-comedy")))
        XCTAssertEqual(try FilterExpression(facetFilters: "count:\\-12"), FilterExpression(.facet("count", -12)))
        XCTAssertEqual(try FilterExpression(facetFilters: "genre:-\\-x"), FilterExpression(.facet("genre", "-x", negated: true)))
        XCTAssertEqual(try FilterExpression(facetFilters: "inStock:true"), FilterExpression(.facet("inStock", true)))
        XCTAssertEqual(try FilterExpression(facetFilters: "url:http://x"), FilterExpression(.facet("url", "http://x")))
        XCTAssertEqual(try FilterExpression(facetFilters: ["_tags:-t"]), FilterExpression(.tag("t", negated: true)))
        XCTAssertEqual(try FilterExpression(facetFilters: [[], "a:1"]), FilterExpression(.facet("a", 1)))
        XCTAssertEqual(try FilterExpression(facetFilters: nil), .all)
        XCTAssertEqual(try FilterExpression(facetFilters: .null), .all)
    }

    func testNumericFilters() throws {
        XCTAssertEqual(
            try FilterExpression(numericFilters: ["price>10", ["a=1", "a=2"], "d:1 TO 5"]),
            FilterExpression(clauses: [
                [.comparison("price", .greater, 10)], [.comparison("a", .equal, 1), .comparison("a", .equal, 2)],
                [.range("d", 1, 5)],
            ]))
        XCTAssertEqual(try FilterExpression(numericFilters: "price <= 9.5"), FilterExpression(.comparison("price", .lessOrEqual, 9.5)))
    }

    func testTagFilters() throws {
        XCTAssertEqual(
            try FilterExpression(tagFilters: ["t1", ["t2", "-t3"], "\\-t4"]),
            FilterExpression(clauses: [[.tag("t1")], [.tag("t2"), .tag("t3", negated: true)], [.tag("-t4")]]))
        XCTAssertEqual(try FilterExpression(tagFilters: "Public"), FilterExpression(.tag("Public")))
    }

    func testParametersAndTogetherAndWithAFiltersString() throws {
        let arrays = try FilterExpression(facetFilters: ["a:x"], numericFilters: ["p<3"], tagFilters: ["t"])
        XCTAssertEqual(arrays, try FilterParser.parse("a:x AND p < 3 AND _tags:t"))
        XCTAssertEqual(
            try FilterParser.parse("b:y").combined(with: arrays),
            try FilterParser.parse("b:y AND a:x AND p < 3 AND t"))
    }

    func testInvalidArrayForms() {
        let cases: [(FilterExpression.ArrayParameters, FilterSyntaxError)] = [
            (.init(facetFilters: ["a:1", "nocolon"]),
             FilterSyntaxError(position: 7, message: "facetFilters[1]: expected ':' after the attribute name")),
            (.init(facetFilters: [["a:1", ":v"]]),
             FilterSyntaxError(position: 0, message: "facetFilters[0][1]: expected an attribute name before ':'")),
            (.init(facetFilters: "a:"), FilterSyntaxError(position: 2, message: "facetFilters: expected a value after ':'")),
            (.init(facetFilters: "a:-"), FilterSyntaxError(position: 3, message: "facetFilters: expected a value after ':'")),
            (.init(facetFilters: [[["a:1"]]]), FilterSyntaxError(position: 0, message: "facetFilters[0][0]: expected a string")),
            (.init(facetFilters: ["c:1", ["brand:a", "_tags:news"]]),
             FilterSyntaxError(position: 0, message: "facetFilters[1]: cannot mix facet and tag filters in one OR")),
            (.init(facetFilters: [1]), FilterSyntaxError(position: 0, message: "facetFilters[0]: expected a string or an array of strings")),
            (.init(facetFilters: ["a": "b"]), FilterSyntaxError(position: 0, message: "facetFilters: expected a string or an array, not object")),
            (.init(facetFilters: "n:1e999"), FilterSyntaxError(position: 2, message: "facetFilters: number out of range")),
            (.init(numericFilters: ["price>"]), FilterSyntaxError(position: 6, message: "numericFilters[0]: expected a number after '>'")),
            (.init(numericFilters: [["a=1", "a:x"]]),
             FilterSyntaxError(position: 0, message: "numericFilters[0][1]: expected a numeric comparison or range")),
            (.init(numericFilters: ["a<1 AND b<2"]), FilterSyntaxError(position: 4, message: "numericFilters[0]: expected end of input")),
            (.init(numericFilters: true), FilterSyntaxError(position: 0, message: "numericFilters: expected a string or an array, not boolean")),
            (.init(tagFilters: ["ok", "-"]), FilterSyntaxError(position: 1, message: "tagFilters[1]: expected a tag")),
            (.init(tagFilters: [""]), FilterSyntaxError(position: 0, message: "tagFilters[0]: expected a tag")),
        ]
        for (parameters, expected) in cases {
            do {
                let expression = try FilterExpression(
                    facetFilters: parameters.facetFilters, numericFilters: parameters.numericFilters,
                    tagFilters: parameters.tagFilters)
                XCTFail("\(expected) not raised; got \(expression)")
            } catch {
                XCTAssertEqual(error, expected)
            }
        }
    }
}

extension FilterExpression {
    /// The three array parameters of one test case.
    struct ArrayParameters {
        var facetFilters: JSON? = nil
        var numericFilters: JSON? = nil
        var tagFilters: JSON? = nil
    }
}
