import Glibc

/// `quarry connect`: joins this process's stdin/stdout to the daemon's socket,
/// byte for byte, so a client that speaks stdio can reach a shared daemon.
///
/// Two plain blocking pumps: stdin → socket on a detached thread, socket →
/// stdout on the caller's thread. Returns when the daemon closes the socket.
public enum Forwarder {
    /// How long to keep retrying after `startDaemon`, in milliseconds.
    static let startupWindowMilliseconds = 5_000

    /// Exit code 0 when the daemon closed the connection, 1 when a copy failed.
    /// Throws when the socket cannot be reached (after starting the daemon, if given).
    public static func run(
        socketPath: String,
        startDaemon: (() throws -> Void)?,
        log: @escaping @Sendable (String) -> Void
    ) throws -> Int32 {
        ignoreSIGPIPE()
        let socket = try connect(socketPath, startDaemon: startDaemon, log: log)
        spawnPump(ByteCopy(from: STDIN_FILENO, to: socket, name: "stdin → socket", log: log))
        let ok = ByteCopy(from: socket, to: STDOUT_FILENO, name: "socket → stdout", log: log).run()
        // Not closed: the stdin pump may still hold it; shutting down makes its writes fail.
        shutdown(socket, Int32(SHUT_RDWR))
        return ok ? 0 : 1
    }

    private static func connect(
        _ path: String, startDaemon: (() throws -> Void)?, log: @Sendable (String) -> Void
    ) throws -> Int32 {
        let length = path.utf8.count
        guard length <= SocketBinder.maxPathBytes else {
            throw TransportError.socketPathTooLong(path: path, bytes: length, limit: SocketBinder.maxPathBytes)
        }
        let firstError: Int32
        switch attempt(path) {
        case .connected(let fd): return fd
        case .failed(let code): firstError = code
        }
        guard let startDaemon, firstError == ENOENT || firstError == ECONNREFUSED else {
            throw TransportError.system(operation: "connect", path: path, errno: firstError)
        }
        log("no daemon at \(path); starting one")
        try startDaemon()
        let deadline = monotonicMilliseconds() + startupWindowMilliseconds
        var delay = 10
        while true {
            switch attempt(path) {
            case .connected(let fd):
                return fd
            case .failed(let code):
                if code != ENOENT && code != ECONNREFUSED || monotonicMilliseconds() >= deadline {
                    throw TransportError.system(operation: "connect", path: path, errno: code)
                }
            }
            usleep(UInt32(delay * 1000))
            delay = min(delay * 2, 250)
        }
    }

    private enum Attempt { case connected(Int32), failed(Int32) }

    private static func attempt(_ path: String) -> Attempt {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(errno) }
        if SocketBinder.withAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 { return .connected(fd) }
        let code = errno
        Glibc.close(fd)
        return .failed(code)
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }

    private static func spawnPump(_ copy: ByteCopy) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(copy).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let copy = Unmanaged<ByteCopy>.fromOpaque(context).takeRetainedValue()
            _ = copy.run()
            if copy.from == STDIN_FILENO { shutdown(copy.to, Int32(SHUT_WR)) }  // tell the daemon input ended
            return nil
        }, context)
        if status == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ByteCopy>.fromOpaque(context).release()
            copy.log("cannot start the stdin pump: \(String(cString: strerror(status)))")
        }
    }

    private static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
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
