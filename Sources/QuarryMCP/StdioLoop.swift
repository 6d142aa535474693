#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON

/// MCP's stdio transport: newline-delimited JSON-RPC on two file descriptors,
/// one message per line, answered in order. Returns when the input closes
/// (the client went away), which is how an MCP server is told to exit.
public enum StdioLoop {
    /// Lines longer than this are answered with a parse error and skipped, so
    /// a runaway client cannot grow the buffer without bound.
    public static let maxLineBytes = 64 << 20

    public static func run(_ server: MCPServer, input: Int32 = 0, output: Int32 = 1) {
        var buffer: [UInt8] = []
        var skipping = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var start = 0
            for position in 0..<count where chunk[position] == UInt8(ascii: "\n") {
                if !skipping {
                    buffer.append(contentsOf: chunk[start..<position])
                    guard answer(buffer, server, output) else { return }
                }
                buffer.removeAll(keepingCapacity: true)
                skipping = false
                start = position + 1
            }
            guard !skipping else { continue }
            buffer.append(contentsOf: chunk[start..<count])
            if buffer.count > maxLineBytes {
                buffer.removeAll()
                skipping = true
                let error = MCPError(code: -32700, message: "a message is longer than \(maxLineBytes) bytes")
                guard write(MCPServer.errorReply(id: .null, error), output) else { return }
            }
        }
    }

    /// Answers one line; false when the output is gone.
    private static func answer(_ line: [UInt8], _ server: MCPServer, _ output: Int32) -> Bool {
        var line = line[...]
        while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") { line = line.dropLast() }
        guard !line.isEmpty, let reply = server.handle(line: line) else { return true }
        return write(reply, output)
    }

    private static func write(_ message: JSON, _ output: Int32) -> Bool {
        var bytes = JSONWriter.encode(message)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
