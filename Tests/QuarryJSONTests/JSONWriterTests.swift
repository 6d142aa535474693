import XCTest
@testable import QuarryJSON

final class JSONWriterTests: XCTestCase {
    func testEscapesOnlyWhatJSONRequires() {
        XCTAssertEqual(JSONWriter.string("a/b\"c\\d\n\u{01}é"), #""a/b\"c\\d\n\u0001é""#)
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
