import Glibc
import QuarrySync

/// A descriptor used by both pumps, closed by whichever finishes last.
final class SharedDescriptor: @unchecked Sendable {
    let fd: Int32
    private let lock = Lock()
    private var owners = 2  // guarded by lock

    init(_ fd: Int32) { self.fd = fd }

    func release() {
        let last = lock.withLock {
            owners -= 1
            return owners == 0
        }
        if last { Glibc.close(fd) }
    }
}

/// Copies one descriptor to another until end of input or an error.
final class ByteCopy: Sendable {
    let from: Int32
    let to: Int32
    let name: String
    let log: @Sendable (String) -> Void

    init(from: Int32, to: Int32, name: String, log: @escaping @Sendable (String) -> Void) {
        self.from = from
        self.to = to
        self.name = name
        self.log = log
    }

    /// True at a clean end of input, false when a read or write failed.
    func run() -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(from, buffer.baseAddress, buffer.count)
            if count == 0 { return true }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { wait(for: from, events: POLLIN); continue }
                return failed("read")
            }
            var offset = 0
            while offset < count {
                let written = write(to, buffer.baseAddress.map { $0 + offset }, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { wait(for: to, events: POLLOUT); continue }
                    return failed("write")
                }
                offset += written
            }
        }
    }

    private func wait(for fd: Int32, events: Int32) {
        var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
        _ = poll(&descriptor, 1, -1)
    }

    private func failed(_ operation: String) -> Bool {
        let code = errno
        if code != EPIPE && code != ECONNRESET {
            log("\(name): \(operation) failed: \(String(cString: strerror(code)))")
        }
        return false
    }
}
