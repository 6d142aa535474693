#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuarryClient
import QuarryJSON
import XCTest
@testable import QuarryMCP

/// The stdio transport on real pipes: messages cut anywhere, answered in
/// order, and the loop ends when its input closes.
final class StdioLoopTests: XCTestCase {
    func testAnswersLinesFedByteByByteAndEndsAtEndOfInput() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&input), 0)
        XCTAssertEqual(pipe(&output), 0)
        let server = MCPServer(runner: ToolRunner(allowWrites: false) {
            ConnectionLink(try DaemonConnection(socketPath: "/nonexistent/quarry-mcp-test.sock"))
        })
        let text = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\r\n\n" + #"{"jsonrpc":"2.0","method":"notifications/initialized"}"# + "\n"
            + #"{"jsonrpc":"2.0","id":2,"method":"ping"}"# + "\n"
        // Another thread types the input one byte per write, then closes it: the loop sees cut messages, then the end.
        let writer = input[1]
        let typist = Thread {
            for byte in Array(text.utf8) {
                _ = withUnsafeBytes(of: byte) { write(writer, $0.baseAddress, 1) }
            }
            close(writer)
        }
        typist.start()
        StdioLoop.run(server, input: input[0], output: output[1])
        close(output[1])
        close(input[0])
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received += chunk[..<count]
        }
        close(output[0])
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines, [#"{"jsonrpc":"2.0","id":1,"result":{}}"#, #"{"jsonrpc":"2.0","id":2,"result":{}}"#])
    }
}
