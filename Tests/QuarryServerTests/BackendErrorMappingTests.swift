import QuarryJSON
import QuarryProtocol
import QuarrySearchContract
@testable import QuarryServer
import QuarrySession
import XCTest

/// Backend failures on the wire: one mapping for index methods and sessions, a code per cause,
/// -32603 left for bugs.
final class BackendErrorMappingTests: XCTestCase {
    func testResourceErrorsHaveTheirOwnCodes() {
        let cases: [(BackendError, Int, String)] = [
            (.diskFull("d"), -32010, "diskFull"),
            (.storage("s"), -32011, "storage"),
            (.resourceExhausted("r"), -32012, "resourceExhausted"),
        ]
        for (error, code, reason) in cases {
            let reply = ResponseError(backend: error)
            XCTAssertEqual(reply.code.rawValue, code, "\(error)")
            XCTAssertEqual(reply.data, ["reason": .string(reason)], "\(error)")
            XCTAssertTrue(reply.message.contains("nothing was written"), reply.message)
        }
        XCTAssertEqual(ResponseError(backend: .invalidParameter(name: "query", expected: "a string")).code, .invalidParams)
    }

    func testEveryCaseHasAStableCodeAndNamesItsParameter() {
        let cases: [(BackendError, ErrorCode, JSON?)] = [
            (.indexNotFound("talks"), .invalidParams, ["parameter": "index"]),
            (.invalidParameter(name: "hitsPerPage", expected: "an integer"), .invalidParams, ["parameter": "hitsPerPage"]),
            (.invalidSetting(name: "customRanking", expected: "an array"), .invalidParams, ["parameter": "settings.customRanking"]),
            (.invalidRecord(position: "record 3", reason: "no objectID"), .invalidParams, nil),
            (.cancelled, .requestCancelled, nil),
            (.unavailable("no leader"), .backendUnavailable, ["reason": "backendUnavailable"]),
            (.directoryLocked("/d"), .internalError, nil),
        ]
        for (error, code, data) in cases {
            let reply = ResponseError(backend: error)
            XCTAssertEqual(reply.code, code, "\(error)")
            XCTAssertEqual(reply.data, data, "\(error)")
            XCTAssertTrue(reply.message.contains(error.description), reply.message)
        }
    }

    func testSessionsMapBackendErrorsTheSameWay() {
        let errors: [BackendError] = [.indexNotFound("talks"), .invalidParameter(name: "page", expected: "a non-negative integer"),
                                      .diskFull("d"), .storage("s"), .resourceExhausted("r"), .unavailable("u")]
        for error in errors {
            let direct = ResponseError(backend: error)
            let viaSession = ResponseError(session: .backend(error), method: "setQuery")
            XCTAssertEqual(viaSession.code, direct.code, "\(error)")
            XCTAssertEqual(viaSession.message, direct.message, "\(error)")
            XCTAssertEqual(viaSession.data, direct.data, "\(error)")
        }
    }
}
