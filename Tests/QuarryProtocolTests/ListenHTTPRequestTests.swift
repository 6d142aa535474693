import QuarryJSON
import QuarryProtocol
import XCTest

/// `listenHTTP` (protocol/methods/listenHTTP.md): any params are ignored, and the result is written as its page shows.
final class ListenHTTPRequestTests: XCTestCase {
    func testParamsAreIgnoredAndTheResultIsTheDocumentedObject() throws {
        _ = try ListenHTTPRequest(params: Params(try JSONParser.parse(#"{"anything":1}"#), method: ListenHTTPRequest.method))
        let result = ListenHTTPRequest.Response(address: "127.0.0.1:40713", started: true)
        XCTAssertEqual(JSONWriter.string(OutgoingMessage.result(result.json, id: .number(2))),
                       #"{"jsonrpc":"2.0","id":2,"result":{"address":"127.0.0.1:40713","started":true}}"#)
    }
}
