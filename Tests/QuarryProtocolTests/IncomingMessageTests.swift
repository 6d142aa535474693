import QuarryJSON
import QuarryProtocol
import XCTest

final class IncomingMessageTests: XCTestCase {
    private func classify(_ text: String) throws -> IncomingMessage {
        IncomingMessage(json: try JSONParser.parse(text))
    }

    func testRequestsAndNotifications() throws {
        XCTAssertEqual(try classify(#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#),
                       .request(id: .number(1), method: "subtract", params: [42, 23]))
        XCTAssertEqual(try classify(#"{"jsonrpc":"2.0","method":"x","id":"abc"}"#),
                       .request(id: .string("abc"), method: "x", params: nil))
        XCTAssertEqual(try classify(#"{"jsonrpc":"2.0","method":"update","params":[1,2]}"#),
                       .notification(method: "update", params: [1, 2]))
        XCTAssertEqual(try classify(#"{"jsonrpc":"2.0","id":3,"result":null}"#), .response(id: .number(3)))
    }

    func testNullParamsAreAbsent() throws {
        XCTAssertEqual(try classify(#"{"jsonrpc":"2.0","method":"shutdown","params":null,"id":2}"#),
                       .request(id: .number(2), method: "shutdown", params: nil))
        XCTAssertEqual(try classify(#"{"jsonrpc":"2.0","method":"exit","params":null}"#),
                       .notification(method: "exit", params: nil))
    }

    func testInvalidMessagesKeepTheirIdWhenItIsValid() throws {
        let cases: [(String, RequestID?, String)] = [
            (#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#, nil, "invalid request: 'method' must be a string, got number"),
            (#"{"jsonrpc":"1.0","method":"x","id":4}"#, .number(4), "invalid request: 'jsonrpc' must be \"2.0\""),
            (#"{"jsonrpc":"2.0","id":5}"#, .number(5), "invalid request: 'method' is missing"),
            (#"{"jsonrpc":"2.0","method":"x","params":3,"id":"q"}"#, .string("q"), "invalid request: 'params' must be an object or an array, got number"),
            (#"{"jsonrpc":"2.0","method":"x","id":{}}"#, nil, "invalid request: 'id' must be an integer or a string, got object"),
            ("1", nil, "invalid request: a message must be a JSON object, got number"),
        ]
        for (text, id, message) in cases {
            XCTAssertEqual(try classify(text), .invalid(id: id, error: .invalidRequest(message)), text)
        }
    }

    func testOutgoingMessagesAreGolden() {
        XCTAssertEqual(JSONWriter.string(OutgoingMessage.result(19, id: .number(1))), #"{"jsonrpc":"2.0","id":1,"result":19}"#)
        XCTAssertEqual(JSONWriter.string(OutgoingMessage.error(.invalidRequest("x"), id: nil)),
                       #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#)
        let progress = ProgressNotification(token: "t", kind: .report, message: "10 records", percentage: 5)
        XCTAssertEqual(JSONWriter.string(progress.message),
                       #"{"jsonrpc":"2.0","method":"$/progress","params":{"token":"t","value":{"kind":"report","message":"10 records","percentage":5}}}"#)
    }
}
