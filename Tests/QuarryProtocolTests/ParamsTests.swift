import QuarryJSON
import QuarryProtocol
import XCTest

final class ParamsTests: XCTestCase {
    private func params(_ text: String, method: String = "saveObjects") throws -> Params {
        try Params(try JSONParser.parse(text), method: method)
    }

    private func assertInvalid<T>(_ body: @autoclosure () throws -> T, _ message: String, parameter: String?,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? ResponseError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.code, .invalidParams, file: file, line: line)
            XCTAssertEqual(error.message, message, file: file, line: line)
            XCTAssertEqual(error.data?["parameter"]?.stringValue, parameter, file: file, line: line)
        }
    }

    func testMessagesNameTheParameterAndWhatWasExpected() throws {
        assertInvalid(try SaveObjectsRequest(params: params(#"{"objects":[]}"#)),
                      "invalid params for 'saveObjects': 'index' must be a string, it is missing", parameter: "index")
        assertInvalid(try SaveObjectsRequest(params: params(#"{"index":"a","objects":[{},3]}"#)),
                      "invalid params for 'saveObjects': 'objects[1]' must be an object, got number", parameter: "objects[1]")
        assertInvalid(try SaveObjectsRequest(params: params(#"{"index":"a/b","objects":[]}"#)),
                      "invalid params for 'saveObjects': 'index' must be an index name (1 to 200 characters, no '/' or control characters), got \"a/b\"", parameter: "index")
        assertInvalid(try ImportFileRequest(params: params(#"{"index":"a","path":"/x","format":"xml"}"#, method: "importFile")),
                      "invalid params for 'importFile': 'format' must be one of \"csv\", \"json\", \"ndjson\", got \"xml\"", parameter: "format")
        assertInvalid(try Params(.array([]), method: "search"),
                      "invalid params for 'search': params must be an object, got array", parameter: nil)
    }

    func testSearchPassesEveryOtherParameterThrough() throws {
        let request = try SearchRequest(params: params(#"{"index":"products","query":"mus","hitsPerPage":5}"#, method: "search"))
        XCTAssertEqual(request.index, "products")
        XCTAssertEqual(request.parameters, ["query": "mus", "hitsPerPage": 5])
    }

    func testInitializeNegotiation() throws {
        let offered = try InitializeRequest(params: params(#"{"capabilities":{"general":{"positionEncodings":["utf-32","utf-8","utf-16"]}}}"#, method: "initialize"))
        XCTAssertEqual(offered.negotiatedPositionEncoding, "utf-32")
        let skipped = try InitializeRequest(params: params(#"{"capabilities":{"general":{"positionEncodings":["latin-1","utf-8"]}}}"#, method: "initialize"))
        XCTAssertEqual(skipped.negotiatedPositionEncoding, "utf-8", "an encoding Quarry lacks is skipped")
        XCTAssertEqual(try InitializeRequest(params: params("{}", method: "initialize")).negotiatedPositionEncoding, "utf-16")
    }
}
