import Glibc

/// Why a listener or the stdio attachment could not be set up.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    case socketPathTooLong(path: String, bytes: Int, limit: Int)
    case alreadyRunning(path: String)
    case notASocket(path: String)
    case unsafeDirectory(path: String, reason: String)
    case unsupportedDescriptor(fd: Int32)
    case system(operation: String, path: String?, errno: Int32)
    /// The transport has already stopped.
    case stopped

    public var description: String {
        switch self {
        case .socketPathTooLong(let path, let bytes, let limit):
            "socket path is \(bytes) bytes, over the \(limit)-byte limit of Unix sockets: \(path)"
        case .alreadyRunning(let path):
            "a quarry daemon is already running at \(path)"
        case .notASocket(let path):
            "\(path) exists and is not a socket; refusing to replace it"
        case .unsafeDirectory(let path, let reason):
            "unsafe socket directory \(path): \(reason)"
        case .unsupportedDescriptor(let fd):
            "file descriptor \(fd) is not a pipe, socket, terminal or file"
        case .system(let operation, let path, let code):
            "\(operation)\(path.map { " \($0)" } ?? "") failed: \(String(cString: strerror(code)))"
        case .stopped:
            "the transport has stopped"
        }
    }
}
