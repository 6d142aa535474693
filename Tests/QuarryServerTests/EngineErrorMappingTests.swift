import QuarryEngine
import QuarryJSON
import QuarryProtocol
@testable import QuarryServer
import XCTest
import QuarrySearchContract

/// Engine failures on the wire: a code per cause, -32603 left for bugs.
final class EngineErrorMappingTests: XCTestCase {
    func testResourceErrorsHaveTheirOwnCodes() {
        let cases: [(BackendError, Int, String)] = [
            (.diskFull("d"), -32010, "diskFull"),
            (.storage("s"), -32011, "storage"),
            (.resourceExhausted("r"), -32012, "resourceExhausted"),
        ]
        for (error, code, reason) in cases {
            let reply = ResponseError(engine: error)
            XCTAssertEqual(reply.code.rawValue, code, "\(error)")
            XCTAssertEqual(reply.data, ["reason": .string(reason)], "\(error)")
            XCTAssertTrue(reply.message.contains("nothing was written"), reply.message)
        }
        XCTAssertEqual(ResponseError(engine: .invalidParameter(name: "query", expected: "a string")).code, .invalidParams)
    }
}
