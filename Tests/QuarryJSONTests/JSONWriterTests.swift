import XCTest
@testable import QuarryJSON

final class JSONWriterTests: XCTestCase {
    func testEscapesOnlyWhatJSONRequires() {
        XCTAssertEqual(JSONWriter.string("a/b\"c\\d\n\u{01}é"), #""a/b\"c\\d\n\u0001é""#)
    }

    /// Strings are walked eight bytes at a time while none needs escaping: every byte that does, at every
    /// place in and across those words, is escaped as the byte-by-byte rule says, and reads back the same.
    func testEscapesAtEveryPlaceOfLongStrings() throws {
        func reference(_ text: String) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "\"")]
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
                case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0..<0x20: out += Array(#"\u00"#.utf8) + Array((String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)).utf8)
                default: out.append(byte)
                }
            }
            return out + [UInt8(ascii: "\"")]
        }
        let pieces = ["a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "€", "𝄞", "/"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator))
                .map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined()
            let written = JSONWriter.encode(.string(text))
            XCTAssertEqual(written, reference(text), text)
            XCTAssertEqual(try JSONParser.parse(written), .string(text))
        }
    }

    func testNumbers() {
        XCTAssertEqual(JSONWriter.string([0, -12, 9_223_372_036_854_775_807, 1.5, 10.0, .double(.nan)]),
                       "[0,-12,9223372036854775807,1.5,10,null]")
        XCTAssertEqual(JSONWriter.string(.int(Int64.min)), "-9223372036854775808")
    }

    func testRoundTrip() throws {
        let text = #"{"hits":[{"objectID":"1","name":"Clooney","tags":["a","b"],"n":{"x":null}}],"nbHits":1}"#
        XCTAssertEqual(JSONWriter.string(try JSONParser.parse(text)), text)
    }
}
