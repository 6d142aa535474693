import QuarryFilters
import XCTest

/// Rendering to the canonical `filters` string (protocol/sessions.md, "Filter state"):
/// 1. names and strings double-quoted with `"` and `\` escaped, numbers shortest;
/// 2. OR clauses parenthesised, clauses joined by AND, NOT as a prefix;
/// 3. group rendering for sessions: sorted, deduplicated, parenthesised;
/// 4. parse(render(x)) == x on hand-picked expressions (the random ones are in
///    FilterPropertyTests).
final class FilterRenderingTests: XCTestCase {
    func testAtoms() {
        XCTAssertEqual(FilterAtom.facet("category", "chair").rendered(), #""category":"chair""#)
        XCTAssertEqual(FilterAtom.facet("price", 10).rendered(), #""price":10"#)
        XCTAssertEqual(FilterAtom.facet("price", 10.5).rendered(), #""price":10.5"#)
        XCTAssertEqual(FilterAtom.facet("inStock", true).rendered(), #""inStock":true"#)
        XCTAssertEqual(FilterAtom.comparison("price", .less, 20.0).rendered(), #""price" < 20"#)
        XCTAssertEqual(FilterAtom.comparison("price", .notEqual, -0.25).rendered(), #""price" != -0.25"#)
        XCTAssertEqual(FilterAtom.range("price", 10, 20.5, negated: true).rendered(), #"NOT "price":10 TO 20.5"#)
        XCTAssertEqual(FilterAtom.tag("new").rendered(), #""_tags":"new""#)
        XCTAssertEqual(FilterAtom.facet("_tags", "x"), FilterAtom.tag("x"))
        XCTAssertEqual(FilterAtom.facet("q", "say \"hi\" \\o/").rendered(), #""q":"say \"hi\" \\o/""#)
        XCTAssertEqual(FilterAtom.comparison("big", .greater, 1e20).rendered(), #""big" > 1e+20"#)
        XCTAssertEqual(FilterAtom.comparison("tiny", .greater, 1e-7).rendered(), #""tiny" > 1e-07"#)
    }

    func testExpressions() throws {
        XCTAssertEqual(FilterExpression.all.rendered(), "")
        let expression = try FilterParser.parse("(category:chair OR category:table) AND price < 20.0 AND NOT sale:true")
        XCTAssertEqual(
            expression.rendered(),
            #"( "category":"chair" OR "category":"table" ) AND "price" < 20 AND NOT "sale":true"#)
        XCTAssertEqual("\(expression)", expression.rendered())
    }

    func testSessionGroups() {
        XCTAssertEqual(
            FilterExpression.renderedGroup(
                [.facet("category", "table"), .facet("category", "chair"), .facet("category", "table")], joinedBy: .or),
            #"( "category":"chair" OR "category":"table" )"#)
        XCTAssertEqual(
            FilterExpression.renderedGroup(
                [.comparison("price", .greater, 10), .comparison("price", .less, 20)], joinedBy: .and),
            #"( "price" < 20 AND "price" > 10 )"#)
        XCTAssertEqual(FilterExpression.renderedGroup([.tag("a")], joinedBy: .and), #"( "_tags":"a" )"#)
        XCTAssertNil(FilterExpression.renderedGroup([], joinedBy: .or))
        // Code-point order: upper-case before lower-case, precomposed "é" (U+00E9) after "z".
        XCTAssertEqual(
            FilterExpression.renderedGroup([.tag("é"), .tag("z"), .tag("Z"), .tag("a")], joinedBy: .or),
            #"( "_tags":"Z" OR "_tags":"a" OR "_tags":"z" OR "_tags":"é" )"#)
    }

    func testRoundTrip() throws {
        let texts = [
            #"a:"x y" AND b:'it\'s' AND c:"back\\slash" AND "d e":"\"q\"""#,
            "(a:1 OR a:2.5 OR NOT a:true) AND x:-1e-9 TO 1e300 AND NOT tag AND (p < 1 OR p >= 7)",
            "(t1 OR NOT t2) AND n != 0 AND n = -3 AND n > 0.1 AND n <= 1234567890123456789",
            #"a:"AND" AND b:"10" AND c:"" AND nested.path:"(x)""#,
        ]
        for text in texts {
            let expression = try FilterParser.parse(text)
            XCTAssertEqual(try FilterParser.parse(expression.rendered()), expression, text)
        }
    }
}
