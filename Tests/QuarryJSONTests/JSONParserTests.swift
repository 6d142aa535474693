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

    /// JSON's grammar allows any magnitude: a number past Double's range is ±infinity, not a parse
    /// error (which would lose the request's id), and writes back as ±1e999, which reads back the same.
    func testNumbersBeyondDoubleRangeAreInfinityAndRoundTrip() throws {
        for (text, value) in [("1e999", Double.infinity), ("-1e400", -.infinity), ("2E+308", .infinity)] {
            XCTAssertEqual(try JSONParser.parse(text), .double(value), text)
            let written = JSONWriter.encode(.double(value))
            XCTAssertEqual(String(decoding: written, as: UTF8.self), value < 0 ? "-1e999" : "1e999")
            XCTAssertEqual(try JSONParser.parse(written), .double(value))
        }
        XCTAssertEqual(try JSONParser.parse("[0, 2E+308]"), .array([.int(0), .double(.infinity)]))
        XCTAssertEqual(try JSONParser.parse("1e-999"), .double(0))
        XCTAssertEqual(try JSONParser.parse("1.7976931348623157e308"), .double(.greatestFiniteMagnitude))
        XCTAssertEqual(try JSONParser.parse("123456789012345678901234567890"), .double(1.2345678901234568e29))
        XCTAssertEqual(JSONWriter.string(.double(.nan)), "null")
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

    /// Strings are decoded without the standard library's validating initializer, so each kind of
    /// malformed UTF-8 is checked here, in keys, values and escaped strings alike.
    func testRejectsEachKindOfMalformedUTF8() {
        let malformed: [[UInt8]] = [
            [0xFF], [0x80], [0xC0, 0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x98], [0x61, 0xE9, 0x62],
        ]
        for bytes in malformed {
            for document in [[0x22] + bytes + [0x22], [0x7B, 0x22] + bytes + [0x22, 0x3A, 0x31, 0x7D],
                             [0x22, 0x5C, 0x6E] + bytes + [0x22]] {
                XCTAssertThrowsError(try JSONParser.parse(document), "\(document)") { error in
                    XCTAssertEqual((error as? JSONParseError)?.reason, "invalid UTF-8 in string", "\(document)")
                }
            }
        }
        XCTAssertEqual(try JSONParser.parse(Array(#""é€𝄞\u00e9 \uFFFD �""#.utf8)), .string("é€𝄞é \u{FFFD} \u{FFFD}"))
    }

    /// Random byte strings: the parser accepts a string exactly when the standard library's
    /// validating initializer does, and then yields the same text.
    func testAcceptsStringsExactlyWhenTheyAreValidUTF8() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x61], [0x7A], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xBF],
                                 [0xC3], [0xE2], [0xF0], [0xED, 0xA0], [0xF5], [0xC1], [0xEF, 0xBF, 0xBD]]
        for _ in 0..<5_000 {
            var content: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                content += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let expected = String(validating: content, as: UTF8.self)
            let parsed = try? JSONParser.parse([0x22] + content + [0x22])
            XCTAssertEqual(parsed, expected.map(JSON.string), "\(content)")
        }
    }

    /// A string with escapes between runs of plain bytes (a record stored as a string): each run is
    /// copied whole, and a control character or the end inside a run is still refused where it is.
    func testReadsEscapedStringsRunByRun() throws {
        let record: JSON = ["name": "Land's \"design\"", "tags": ["é", "a\\b", "tab\there"], "n": 3]
        let stored = JSONWriter.string(record)
        let text = JSONWriter.string(.string(stored))
        XCTAssertEqual(try JSONParser.parse(text), .string(stored))
        XCTAssertEqual(try JSONParser.parse(stored), record)
        XCTAssertThrowsError(try JSONParser.parse("\"a\\nbc\u{01}d\"")) { error in
            XCTAssertEqual(error as? JSONParseError, JSONParseError(offset: 6, reason: "unescaped control character in string"))
        }
        XCTAssertThrowsError(try JSONParser.parse("\"a\\nbcd")) { error in
            XCTAssertEqual(error as? JSONParseError, JSONParseError(offset: 0, reason: "unterminated string"))
        }
    }

    /// A key given twice keeps its first place and its last value, in small and large objects and nested ones.
    func testARepeatedKeyKeepsItsPlaceAndItsLastValue() throws {
        let small = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        XCTAssertEqual(small.objectValue.map { Array($0.keys) }, ["a", "b"])
        XCTAssertEqual(small["a"], 3)
        let keys = (0..<40).map { "key\($0)" }
        let text = "{" + (keys + ["key7", "key39"]).enumerated().map { #""\#($0.element)":\#($0.offset)"# }.joined(separator: ",") + "}"
        let large = try JSONParser.parse(text)
        XCTAssertEqual(large.objectValue.map { Array($0.keys) }, keys)
        XCTAssertEqual(large["key7"], 40)
        XCTAssertEqual(large["key39"], 41)
        XCTAssertEqual(large["key8"], 8)
        let nested = try JSONParser.parse(#"{"o":{"x":1,"x":{"y":[{"z":1,"z":2}]}},"o":{"x":0}}"#)
        XCTAssertEqual(nested, ["o": ["x": 0]])
        XCTAssertEqual(try JSONParser.parse(#"[{"x":1,"x":{"y":[{"z":1,"z":2}]}}]"#), [["x": ["y": [["z": 2]]]]])
        // The same key written with an escape, or as canonically equivalent text of another length.
        XCTAssertEqual(try JSONParser.parse(#"{"ab":1,"a\u0062":2,"abc":3}"#), ["ab": 2, "abc": 3])
        let composed = try JSONParser.parse(#"{"\u00e9":1,"x":0,"e\u0301":2}"#)
        XCTAssertEqual(composed.objectValue?.count, 2)
        XCTAssertEqual(composed["é"], 2)
    }

    /// Strings are scanned several bytes at a time: a quote, a backslash, a control character or a non-ASCII
    /// byte is found at every position of a word, and a string may end anywhere in one, even at the input's end.
    func testFindsEachSpecialByteAtEveryPositionOfAWord() throws {
        for length in 0..<40 {
            let plain = String(repeating: "abcdefgh", count: 5).prefix(length)
            XCTAssertEqual(try JSONParser.parse("\"\(plain)\""), .string(String(plain)), "\(length)")
            XCTAssertEqual(try JSONParser.parse(#"{"\#(plain)":"\#(plain)"}"#), [String(plain): .string(String(plain))])
            for position in 0..<length {
                let before = plain.prefix(position), after = plain.dropFirst(position + 1)
                XCTAssertEqual(try JSONParser.parse("\"\(before)\\\"\(after)\""), .string("\(before)\"\(after)"))
                XCTAssertEqual(try JSONParser.parse("\"\(before)é\(after)\""), .string("\(before)é\(after)"))
                XCTAssertEqual(try JSONParser.parse("\"\(before)~\u{7F}\(after)\""), .string("\(before)~\u{7F}\(after)"))
                XCTAssertThrowsError(try JSONParser.parse("\"\(before)\u{1F}\(after)\"")) { error in
                    XCTAssertEqual(error as? JSONParseError,
                                   JSONParseError(offset: 1 + position, reason: "unescaped control character in string"))
                }
                var invalid = Array("\"\(plain)\"".utf8)
                invalid[1 + position] = 0xFF
                XCTAssertThrowsError(try JSONParser.parse(invalid)) { error in
                    XCTAssertEqual(error as? JSONParseError, JSONParseError(offset: 1, reason: "invalid UTF-8 in string"))
                }
            }
            XCTAssertThrowsError(try JSONParser.parse("\"\(plain)")) { error in
                XCTAssertEqual(error as? JSONParseError, JSONParseError(offset: 0, reason: "unterminated string"))
            }
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
