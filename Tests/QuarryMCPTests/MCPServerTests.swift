import QuarryClient
import QuarryJSON
import XCTest
@testable import QuarryMCP

/// The lifecycle and the JSON-RPC errors, with a daemon that is really absent:
/// none of these may need one, and a tool that does reports it as a tool error.
final class MCPServerTests: XCTestCase {
    private func server(allowWrites: Bool = false) -> MCPServer {
        MCPServer(runner: ToolRunner(allowWrites: allowWrites) {
            ConnectionLink(try DaemonConnection(socketPath: "/nonexistent/quarry-mcp-test.sock"))
        })
    }

    private func send(_ server: MCPServer, _ text: String) -> JSON? {
        server.handle(line: Array(text.utf8))
    }

    func testInitializeNegotiatesTheVersion() {
        let server = server()
        let reply = send(server, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
        XCTAssertEqual(reply?["result"]?["protocolVersion"], "2025-11-25")
        XCTAssertNotNil(reply?["result"]?["capabilities"]?["tools"])
        XCTAssertNil(send(server, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#))
        XCTAssertEqual(send(server, #"{"jsonrpc":"2.0","id":"p","method":"ping"}"#)?["result"], [:])
    }

    func testToolsListHidesWritesUnlessAllowed() {
        let names: (MCPServer) -> [String] = { server in
            (self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)?["result"]?["tools"]?.arrayValue ?? [])
                .compactMap { $0["name"]?.stringValue }
        }
        XCTAssertFalse(names(server()).contains("save_objects"))
        XCTAssertTrue(names(server(allowWrites: true)).contains("save_objects"))
    }

    func testUnknownToolsAndBadArgumentsAreInvalidParams() {
        let server = server()
        let unknown = send(server, #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#)
        XCTAssertEqual(unknown?["error"]?["code"], -32602)
        XCTAssertEqual(unknown?["error"]?["data"]?["parameter"], "name")
        let write = send(server, #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"save_objects","arguments":{}}}"#)
        XCTAssertTrue(write?["error"]?["message"]?.stringValue?.contains("--allow-writes") ?? false)
        let bad = send(server, #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"index":"t","page":"2"}}}"#)
        XCTAssertEqual(bad?["error"]?["data"]?["parameter"], "arguments.page")
    }

    func testAToolWithoutADaemonIsAToolError() {
        let reply = send(server(), #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_indices"}}"#)
        XCTAssertEqual(reply?["result"]?["isError"], true)
        XCTAssertTrue(reply?["result"]?["content"]?[0]?["text"]?.stringValue?.contains("cannot connect") ?? false, "\(String(describing: reply))")
    }

    func testProtocolErrors() {
        let server = server()
        XCTAssertEqual(send(server, "{nope")?["error"]?["code"], -32700)
        XCTAssertEqual(send(server, #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)?["error"]?["code"], -32600)
        XCTAssertEqual(send(server, #"{"jsonrpc":"2.0","id":1,"method":"sampling/nothing"}"#)?["error"]?["code"], -32601)
        XCTAssertEqual(send(server, #"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}"#)?["error"]?["code"], -32002)
    }
}

extension JSON {
    fileprivate subscript(index: Int) -> JSON? { arrayValue.flatMap { index < $0.count ? $0[index] : nil } }
}
