import QuarryFilters
import XCTest

/// The `filters` string, valid inputs:
/// 1. every atom kind and every comparison operator;
/// 2. NOT, AND, OR, parentheses and how they flatten to clauses;
/// 3. quoting (double, single, escapes, keywords as text) and numbers;
/// 4. the forms InstantSearch sends.
final class FilterParserTests: XCTestCase {
    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> FilterExpression? {
        do {
            return try FilterParser.parse(text)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return nil
        }
    }

    private func assertParses(
        _ text: String, _ clauses: [[FilterAtom]], file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(parse(text, file: file, line: line), FilterExpression(clauses: clauses), text, file: file, line: line)
    }

    func testEmptyInputIsNoFilter() {
        assertParses("", [])
        assertParses("   \t\n", [])
        XCTAssertEqual(parse(""), .all)
    }

    func testFacetValuesKeepTheirKind() {
        assertParses("category:Book", [[.facet("category", .string("Book"))]])
        assertParses("price:10", [[.facet("price", .number(10))]])
        assertParses("price:10.5", [[.facet("price", .number(10.5))]])
        assertParses("inStock:true", [[.facet("inStock", .bool(true))]])
        assertParses("inStock:false", [[.facet("inStock", .bool(false))]])
        assertParses("inStock:\"true\"", [[.facet("inStock", .string("true"))]])
        assertParses("code:\"10\"", [[.facet("code", .string("10"))]])
        assertParses("a:-v", [[.facet("a", .string("-v"))]])
        assertParses("a : b", [[.facet("a", .string("b"))]])
    }

    func testNumbers() {
        assertParses("n:-3", [[.facet("n", .number(-3))]])
        assertParses("n:1e3", [[.facet("n", .number(1000))]])
        assertParses("n:2.5E-1", [[.facet("n", .number(0.25))]])
        assertParses("n:1e+2", [[.facet("n", .number(100))]])
        assertParses("n:.5", [[.facet("n", .number(0.5))]])
        assertParses("n:5.", [[.facet("n", .number(5))]])
        // Not numbers: kept as strings.
        assertParses("n:1e", [[.facet("n", .string("1e"))]])
        assertParses("n:inf", [[.facet("n", .string("inf"))]])
        assertParses("n:0x10", [[.facet("n", .string("0x10"))]])
        assertParses("n:+5", [[.facet("n", .string("+5"))]])
    }

    func testEveryComparisonOperator() {
        for op in NumericOperator.allCases {
            assertParses("price \(op.rawValue) 20", [[.comparison("price", op, 20)]])
            assertParses("price\(op.rawValue)-1.5e1", [[.comparison("price", op, -15)]])
        }
    }

    func testRange() {
        assertParses("price:5.99 TO 100", [[.range("price", 5.99, 100)]])
        assertParses("date: 1441745506 TO 1441755506", [[.range("date", 1441745506, 1441755506)]])
        assertParses("t:-10 TO -1", [[.range("t", -10, -1)]])
        assertParses("NOT t:1 TO 2", [[.range("t", 1, 2, negated: true)]])
    }

    func testTags() {
        assertParses("_tags:published", [[.tag("published")]])
        assertParses("\"_tags\":\"a b\"", [[.tag("a b")]])
        assertParses("_tags:10", [[.tag("10")]])
        assertParses("public OR user_42", [[.tag("public"), .tag("user_42")]])
        assertParses("\"with space\"", [[.tag("with space")]])
        assertParses("NOT draft", [[.tag("draft", negated: true)]])
    }

    func testNotAndOrAndParentheses() {
        assertParses("NOT a:b", [[.facet("a", "b", negated: true)]])
        assertParses("a:1 AND b:2 AND c:3", [[.facet("a", 1)], [.facet("b", 2)], [.facet("c", 3)]])
        assertParses("a:1 OR a:2", [[.facet("a", 1), .facet("a", 2)]])
        assertParses(
            "price < 10 AND (category:Book OR NOT category:Ebook)",
            [[.comparison("price", .less, 10)], [.facet("category", "Book"), .facet("category", "Ebook", negated: true)]])
        assertParses(
            "(a:1 OR a:2) AND (b:1 OR b:2) AND c:3",
            [[.facet("a", 1), .facet("a", 2)], [.facet("b", 1), .facet("b", 2)], [.facet("c", 3)]])
        // Groups of ORs nest into one OR; AND groups flatten into the top AND.
        assertParses("a:1 OR (a:2 OR (a:3))", [[.facet("a", 1), .facet("a", 2), .facet("a", 3)]])
        assertParses("((a:1))", [[.facet("a", 1)]])
        assertParses("( x < 1 AND x > 0 ) AND (y:1 AND (z:1 OR z:2))",
                     [[.comparison("x", .less, 1)], [.comparison("x", .greater, 0)], [.facet("y", 1)],
                      [.facet("z", 1), .facet("z", 2)]])
        assertParses("(price:1 TO 2 OR price > 10)", [[.range("price", 1, 2), .comparison("price", .greater, 10)]])
    }

    func testQuotingAndEscapes() {
        assertParses("author:\"Stephen King\"", [[.facet("author", "Stephen King")]])
        assertParses("'author':'Stephen King'", [[.facet("author", "Stephen King")]])
        assertParses(#"title:"say \"hi\"""#, [[.facet("title", "say \"hi\"")]])
        assertParses(#"title:'it\'s'"#, [[.facet("title", "it's")]])
        assertParses(#"title:'say "hi"'"#, [[.facet("title", "say \"hi\"")]])
        assertParses(#"title:"it's""#, [[.facet("title", "it's")]])
        assertParses(#"path:"C:\\dir""#, [[.facet("path", "C:\\dir")]])
        assertParses(#""we\"ird name":x"#, [[.facet("we\"ird name", "x")]])
        assertParses("a:\"\"", [[.facet("a", "")]])
        // Keywords and syntax characters are text once quoted.
        assertParses("a:\"AND\" OR a:\"TO\"", [[.facet("a", "AND"), .facet("a", "TO")]])
        assertParses("a:\"x:(y)<z\"", [[.facet("a", "x:(y)<z")]])
        assertParses("\"NOT\"", [[.tag("NOT")]])
        // Lower-case keywords are not keywords.
        assertParses("a:and", [[.facet("a", "and")]])
    }

    func testUnquotedNamesAndValues() {
        assertParses("author.name:Ann", [[.facet("author.name", "Ann")]])
        assertParses("my-attr_2:x-y_z.w", [[.facet("my-attr_2", "x-y_z.w")]])
        assertParses("city:Zürich", [[.facet("city", "Zürich")]])
        assertParses("mail:a@b.c", [[.facet("mail", "a@b.c")]])
    }

    func testInstantSearchForms() {
        assertParses(
            #"( "a":"x" OR "a":"y" ) AND ( "p" > 10.0 )"#,
            [[.facet("a", "x"), .facet("a", "y")], [.comparison("p", .greater, 10)]])
        assertParses(#""price" < 20.0"#, [[.comparison("price", .less, 20)]])
        assertParses(
            #"( "category":"chair" OR "category":"table" ) AND ( "price" < 20 AND "price" > 10 )"#,
            [[.facet("category", "chair"), .facet("category", "table")],
             [.comparison("price", .less, 20)], [.comparison("price", .greater, 10)]])
        assertParses(
            #"( "_tags":"t1" OR "_tags":"t2" ) AND ( NOT "brand":"Sony" ) AND ( "price":10.0 TO 20.0 )"#,
            [[.tag("t1"), .tag("t2")], [.facet("brand", "Sony", negated: true)], [.range("price", 10, 20)]])
    }

    func testAttributesTouched() throws {
        let expression = try FilterParser.parse("(a:1 OR a:2) AND p > 3 AND NOT t AND n.m:1 TO 2 AND b:x")
        XCTAssertEqual(expression.attributes, ["a", "p", "_tags", "n.m", "b"])
        XCTAssertEqual(expression.facetAttributes, ["a", "b"])
    }

    func testCombined() throws {
        let left = try FilterParser.parse("(a:1 OR a:2)")
        let right = try FilterParser.parse("b:3")
        XCTAssertEqual(left.combined(with: right), try FilterParser.parse("(a:1 OR a:2) AND b:3"))
        XCTAssertEqual(FilterExpression.all.combined(with: right), right)
    }
}
