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
        try run(socketPath: socketPath, input: STDIN_FILENO, output: STDOUT_FILENO, startDaemon: startDaemon, log: log)
    }

    /// The same with any descriptors in place of stdin/stdout (tests use pipes).
    static func run(
        socketPath: String, input: Int32, output: Int32,
        startDaemon: (() throws -> Void)?, log: @escaping @Sendable (String) -> Void
    ) throws -> Int32 {
        ignoreSIGPIPE()
        let socket = SharedDescriptor(try connect(socketPath, startDaemon: startDaemon, log: log))
        spawnPump(ByteCopy(from: input, to: socket.fd, name: "stdin → socket", log: log), socket: socket)
        let ok = ByteCopy(from: socket.fd, to: output, name: "socket → stdout", log: log).run()
        // The stdin pump may still be blocked reading; shutting down makes its writes fail.
        shutdown(socket.fd, Int32(SHUT_RDWR))
        socket.release()
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

    private static func spawnPump(_ copy: ByteCopy, socket: SharedDescriptor) {
        final class Job: Sendable {
            let copy: ByteCopy
            let socket: SharedDescriptor
            init(_ copy: ByteCopy, _ socket: SharedDescriptor) { self.copy = copy; self.socket = socket }
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Job(copy, socket)).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
            _ = job.copy.run()
            shutdown(job.socket.fd, Int32(SHUT_WR))  // tells the daemon input ended
            job.socket.release()
            return nil
        }, context)
        if status == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Job>.fromOpaque(context).release()
            socket.release()
            copy.log("cannot start the stdin pump: \(String(cString: strerror(status)))")
        }
    }

    private static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }
}

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
