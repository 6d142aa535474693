#if canImport(Glibc)
import Glibc
#endif

/// Lines on stdout, written at once (not buffered), so a command in a
/// pipeline (`quarry watch | jq`) delivers each line as it happens.
enum StandardOutput {
    static func writeLine(_ line: String) {
        write(line + "\n")
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if written >= 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                poll(&descriptor, 1, 100)
            } else if errno != EINTR {
                return
            }
        }
        bytes.removeAll()
    }

    /// All of stdin, for commands that take `-` as "read the argument from stdin".
    static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
