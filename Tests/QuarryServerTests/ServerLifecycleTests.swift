import Foundation
import QuarryEngine
import QuarryJSON
import QuarryServer
import QuarryTransport
import XCTest

/// Properties checked, in-process with a recording sink:
/// 1. nothing but `initialize` is served before `initialize` (-32002);
/// 2. `initialize` negotiates the position encoding (UTF-16 unless offered UTF-8 first);
/// 3. a second `initialize` is refused; after `shutdown` only `exit` is accepted;
/// 4. `exit` on stdio stops with 0 after `shutdown`, 1 before; on a socket it closes only that connection;
/// 5. parse errors, invalid requests and batches follow JSON-RPC 2.0.
final class ServerLifecycleTests: ServerTestCase {
    private let stdio = ConnectionID(rawValue: 1)
    private let socket = ConnectionID(rawValue: 2)

    override func setUpWithError() throws {
        try super.setUpWithError()
        server.connectionOpened(stdio, kind: .stdio)
        server.connectionOpened(socket, kind: .socket)
    }

    private func receive(_ text: String, on id: ConnectionID? = nil) {
        server.received(Array(text.utf8), on: id ?? stdio)
    }

    private func initialize(_ id: ConnectionID? = nil, encodings: String = "[]") -> JSON? {
        let before = sink.snapshot().count
        receive(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":\#(encodings)}}}}"#, on: id)
        return sink.waitForMessages(before + 1).last
    }

    func testRequestsBeforeInitializeAreRefused() {
        receive(#"{"jsonrpc":"2.0","id":"a","method":"search","params":{"index":"x"}}"#)
        let reply = sink.waitForMessages(1)[0]
        XCTAssertEqual(reply["id"], "a")
        XCTAssertEqual(reply["error"]?["code"], -32002)
    }

    func testInitializeNegotiatesPositionEncoding() {
        XCTAssertEqual(initialize(encodings: #"["latin-1","utf-8"]"#)?["result"]?["capabilities"]?["positionEncoding"], "utf-8")
        XCTAssertEqual(initialize(socket)?["result"]?["capabilities"]?["positionEncoding"], "utf-16")
        XCTAssertEqual(initialize(socket)?["error"]?["code"], -32600)
    }

    func testShutdownThenExitStopsWithZero() {
        _ = initialize()
        receive(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
        XCTAssertEqual(sink.waitForMessages(2)[1], ["jsonrpc": "2.0", "id": 1, "result": nil])
        receive(#"{"jsonrpc":"2.0","id":2,"method":"initialize"}"#)
        XCTAssertEqual(sink.waitForMessages(3)[2]["error"]?["code"], -32600)
        receive(#"{"jsonrpc":"2.0","method":"exit"}"#)
        waitUntil { self.sink.isStopped }
        XCTAssertEqual(server.exitCode, 0)
    }

    func testExitWithoutShutdownStopsWithOne() {
        _ = initialize()
        receive(#"{"jsonrpc":"2.0","method":"exit"}"#)
        waitUntil { self.sink.isStopped }
        XCTAssertEqual(server.exitCode, 1)
    }

    func testExitOnSocketClosesOnlyThatConnection() {
        _ = initialize(socket)
        receive(#"{"jsonrpc":"2.0","method":"exit"}"#, on: socket)
        waitUntil { self.sink.closedConnections == [self.socket] }
        XCTAssertFalse(sink.isStopped)
    }

    func testParseErrorKeepsConnectionUsable() {
        receive(#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#)
        let error = sink.waitForMessages(1)[0]
        XCTAssertEqual(error["id"], .null)
        XCTAssertEqual(error["error"]?["code"], -32700)
        XCTAssertNotNil(initialize()?["result"])
    }

    func testUnknownMethodAndBatches() {
        _ = initialize()
        receive(#"{"jsonrpc":"2.0","id":7,"method":"nope"}"#)
        XCTAssertEqual(sink.waitForMessages(2)[1]["error"]?["message"], "method not found: 'nope'")
        receive("[]")
        XCTAssertEqual(sink.waitForMessages(3)[2]["error"]?["code"], -32600)
        receive("[1,2]")
        XCTAssertEqual(sink.waitForMessages(4)[3].arrayValue?.map { $0["error"]?["code"] }, [-32600, -32600])
        receive(#"[{"jsonrpc":"2.0","method":"initialized"},{"jsonrpc":"2.0","method":"$/unknown"}]"#)
        receive(#"{"jsonrpc":"2.0","id":8,"method":"nope"}"#)
        XCTAssertEqual(sink.waitForMessages(5)[4]["id"], 8, "an all-notification batch gets no reply")
    }

    func testEndOfStdioInputStops() {
        _ = initialize()
        server.connectionClosed(stdio)
        waitUntil { self.sink.isStopped }
        XCTAssertEqual(server.exitCode, 1)
    }

    private func waitUntil(_ condition: @escaping () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = DispatchTime.now() + 5
        while !condition() && DispatchTime.now() < deadline { usleep(1000) }
        XCTAssertTrue(condition(), file: file, line: line)
    }
}
