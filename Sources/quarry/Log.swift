#if canImport(Glibc)
import Glibc
#endif

/// Log lines on stderr, never stdout (stdout carries JSON-RPC on stdio).
/// libuv may make a shared stdout/stderr description non-blocking, so a write
/// that would block waits for room instead of dropping the line.
struct Log: Sendable {
    static let standardError = Log()

    func write(_ line: String) {
        writeRaw(line + "\n")
    }

    func writeRaw(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written >= 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                var descriptor = pollfd(fd: 2, events: Int16(POLLOUT), revents: 0)
                poll(&descriptor, 1, 100)
            } else if errno != EINTR {
                return
            }
        }
    }

    /// A sink for the modules' `log` closures, with the daemon's prefix.
    var function: @Sendable (String) -> Void {
        { line in Log.standardError.write("quarry: \(line)") }
    }
}
