import Glibc
import QuarrySync

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

    /// A connected socket to `path`; when nothing answers there and `startDaemon`
    /// is given, calls it and retries for a few seconds.
    public static func connect(
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
        do {
            try DetachedThread.start(name: "quarry-stdin") {
                _ = copy.run()
                shutdown(socket.fd, Int32(SHUT_WR))  // tells the daemon input ended
                socket.release()
            }
        } catch {
            socket.release()
            copy.log("cannot start the stdin pump: \(error)")
        }
    }

    private static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }
}
