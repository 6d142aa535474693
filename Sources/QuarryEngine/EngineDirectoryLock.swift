import QuarrySync
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuarrySearchContract

/// The exclusive claim of one daemon on a data directory: an flock on
/// `<dir>/LOCK`, released by the kernel if the process dies (even kill -9).
final class EngineDirectoryLock: Sendable {
    private let descriptor: Locked<Int32>

    init(directory: String) throws(BackendError) {
        let path = directory + "/LOCK"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system(errno, "cannot open \(path)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { throw .directoryLocked(directory) }
            throw .storage("cannot lock \(path): \(String(cString: strerror(code)))")
        }
        descriptor = Locked(fd)
    }

    func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            close(fd)  // closing the only descriptor drops the flock
            fd = -1
        }
    }

    deinit { release() }
}
