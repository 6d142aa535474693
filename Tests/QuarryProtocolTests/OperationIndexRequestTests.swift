import QuarryJSON
import QuarryProtocol
import XCTest

/// `operationIndex` and `deleteBy` params: what is read, and each refusal names its parameter.
final class OperationIndexRequestTests: XCTestCase {
    private func operation(_ text: String) throws -> OperationIndexRequest {
        try OperationIndexRequest(params: Params(try JSONParser.parse(text), method: OperationIndexRequest.method))
    }

    private func refusedParameter(_ text: String) -> String? {
        do {
            _ = try operation(text)
            return nil
        } catch {
            return (error as? ResponseError)?.data?["parameter"]?.stringValue
        }
    }

    func testCopyAndMoveAreRead() throws {
        let copy = try operation(#"{"index":"a","operation":"copy","destination":"b","scope":["settings","rules"]}"#)
        XCTAssertEqual(copy.operation, .copy)
        XCTAssertEqual(copy.scope, [.settings, .rules])
        let move = try operation(#"{"index":"a","operation":"move","destination":"b","scope":null}"#)
        XCTAssertEqual(move.operation, .move)
        XCTAssertNil(move.scope, "no scope: everything")
        XCTAssertEqual(move.otherIndex, "b", "the destination's writes are ordered too")
    }

    func testRefusalsNameTheParameter() {
        XCTAssertEqual(refusedParameter(#"{"index":"a","destination":"b"}"#), "operation")
        XCTAssertEqual(refusedParameter(#"{"index":"a","operation":"rename","destination":"b"}"#), "operation")
        XCTAssertEqual(refusedParameter(#"{"index":"a","operation":"copy"}"#), "destination")
        XCTAssertEqual(refusedParameter(#"{"index":"a","operation":"copy","destination":"a"}"#), "destination")
        XCTAssertEqual(refusedParameter(#"{"index":"a","operation":"copy","destination":"b","scope":"settings"}"#), "scope")
        XCTAssertEqual(refusedParameter(#"{"index":"a","operation":"copy","destination":"b","scope":["records"]}"#), "scope[0]")
        XCTAssertEqual(refusedParameter(#"{"index":"a","operation":"move","destination":"b","scope":["settings"]}"#), "scope")
    }

    func testDeleteByPassesTheSearchParametersThrough() throws {
        let request = try DeleteByRequest(params: Params(try JSONParser.parse(#"{"index":"a","filters":"x:1","query":"q"}"#),
                                                         method: DeleteByRequest.method))
        XCTAssertEqual(request.parameters, ["filters": "x:1", "query": "q"])
        XCTAssertThrowsError(try DeleteByRequest(params: Params(try JSONParser.parse(#"{"index":"a","query":3}"#),
                                                                method: DeleteByRequest.method)))
    }
}
