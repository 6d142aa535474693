import Glibc

/// A bound, listening Unix socket, plus the lock file that makes the path ours.
struct BoundSocket: Sendable {
    let fd: Int32
    let path: String
    let lockFD: Int32
    let device: UInt64
    let inode: UInt64
    let backlog: Int32

    /// Removes the socket file only if it is still the one we bound, then drops the lock.
    /// Call after `fd` is closed.
    func removeFileAndUnlock() {
        var info = stat()
        if lstat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode {
            unlink(path)
        }
        Glibc.close(lockFD)
    }
}

/// Claims a socket path with plain POSIX calls, so errors reach `listen(on:)`'s
/// caller synchronously and the path length is checked (`uv_pipe_bind` would
/// silently truncate it).
enum SocketBinder {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    static let maxPathBytes = 107

    static func bind(_ options: SocketListenerOptions) throws -> BoundSocket {
        let path = options.path
        let length = path.utf8.count
        guard length <= maxPathBytes else {
            throw TransportError.socketPathTooLong(path: path, bytes: length, limit: maxPathBytes)
        }
        try SocketPath.prepareDirectory(SocketPath.parent(of: path), requirePrivate: options.requirePrivateDirectory)

        // The lock serialises daemons starting at once; the connect probe below
        // then tells a live daemon from a stale file left by a crash.
        let lockFD = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else { throw TransportError.system(operation: "open", path: path + ".lock", errno: errno) }
        guard flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Glibc.close(lockFD)
            throw code == EWOULDBLOCK ? TransportError.alreadyRunning(path: path)
                : TransportError.system(operation: "flock", path: path + ".lock", errno: code)
        }
        do {
            try removeStaleSocket(at: path)
            return try listen(at: path, lockFD: lockFD, backlog: options.backlog)
        } catch {
            Glibc.close(lockFD)
            throw error
        }
    }

    private static func removeStaleSocket(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw TransportError.system(operation: "stat", path: path, errno: errno)
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw TransportError.notASocket(path: path) }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { throw TransportError.system(operation: "socket", path: nil, errno: errno) }
        defer { Glibc.close(probe) }
        let result = withAddress(path) { connect(probe, $0, $1) }
        let code = errno
        if result == 0 || code == EAGAIN || code == EINPROGRESS { throw TransportError.alreadyRunning(path: path) }
        guard code == ECONNREFUSED || code == ENOENT else {
            throw TransportError.system(operation: "connect", path: path, errno: code)
        }
        if unlink(path) != 0 && errno != ENOENT {
            throw TransportError.system(operation: "unlink", path: path, errno: errno)
        }
    }

    private static func listen(at path: String, lockFD: Int32, backlog: Int32) throws -> BoundSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TransportError.system(operation: "socket", path: nil, errno: errno) }
        var info = stat()
        guard withAddress(path, { Glibc.bind(fd, $0, $1) }) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TransportError.system(operation: "bind", path: path, errno: code)
        }
        guard chmod(path, 0o600) == 0, Glibc.listen(fd, backlog) == 0, lstat(path, &info) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(path)
            throw TransportError.system(operation: "listen", path: path, errno: code)
        }
        return BoundSocket(fd: fd, path: path, lockFD: lockFD, device: UInt64(info.st_dev),
                           inode: UInt64(info.st_ino), backlog: backlog)
    }

    /// Calls `body` with a `sockaddr_un` for `path` (whose length the caller checked).
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
