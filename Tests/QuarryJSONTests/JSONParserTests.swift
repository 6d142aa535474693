import XCTest
@testable import QuarryJSON

final class JSONParserTests: XCTestCase {
    func testParsesEveryKind() throws {
        let value = try JSONParser.parse(#"{"a":[1,-2,3.5,1e3,true,false,null,"x\n\u00e9\ud83d\ude00"],"b":{}}"#)
        XCTAssertEqual(value["a"], [1, -2, 3.5, 1000.0, true, false, nil, "x\né😀"])
        XCTAssertEqual(value["b"], .object([:]))
    }

    func testKeepsKeyOrder() throws {
        let value = try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#)
        XCTAssertEqual(value.objectValue.map { Array($0.keys) }, ["z", "a", "m"])
        XCTAssertEqual(JSONWriter.string(value), #"{"z":1,"a":2,"m":3}"#)
    }

    func testLargeIntegersFallBackToDouble() throws {
        XCTAssertEqual(try JSONParser.parse("9223372036854775807"), .int(Int64.max))
        XCTAssertEqual(try JSONParser.parse("-9223372036854775808"), .int(Int64.min))
        XCTAssertEqual(try JSONParser.parse("9223372036854775808"), .double(9223372036854775808))
    }

    /// Found by the json fuzz target: `1e999` became infinity, which writes back as null.
    func testRejectsNumbersBeyondDoubleRange() {
        for text in ["1e999", "-1e400", "[0, 2E+308]"] {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                XCTAssertEqual((error as? JSONParseError)?.reason, "number out of range", text)
            }
        }
        XCTAssertEqual(try JSONParser.parse("1e-999"), .double(0))
        XCTAssertEqual(try JSONParser.parse("1.7976931348623157e308"), .double(.greatestFiniteMagnitude))
    }

    func testRejectsDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, "nesting deeper than 512 levels")
        }
        XCTAssertNoThrow(try JSONParser.parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)))
    }

    func testRejectsInvalidUTF8() {
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22])) { error in
            XCTAssertEqual(error as? JSONParseError, JSONParseError(offset: 1, reason: "invalid UTF-8 in string"))
        }
    }

    func testReportsOffsets() {
        let cases: [(String, Int, String)] = [
            ("", 0, "unexpected end of input, expected a value"),
            ("{\"a\" 1}", 5, "expected ':' after object key"),
            ("[1,]", 3, "unexpected character, expected a value"),
            ("[1 2]", 3, "expected ',' or ']' in array"),
            ("01", 0, "leading zero in number"),
            ("\"abc", 0, "unterminated string"),
            ("tru", 0, "invalid literal"),
            ("{} x", 3, "unexpected data after the JSON value"),
            ("\"\\ud800\"", 7, "unpaired surrogate in \\u escape"),
            ("\"a\u{01}\"", 2, "unescaped control character in string"),
        ]
        for (text, offset, reason) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                XCTAssertEqual(error as? JSONParseError, JSONParseError(offset: offset, reason: reason), text)
            }
        }
    }
}
