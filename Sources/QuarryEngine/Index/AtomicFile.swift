#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How are whole files written so that a crash never leaves half of one? (`FileMapping` reads them.)
enum AtomicFile {
    /// Creates a temporary file beside `path`, lets `body` write it, then makes it durable and renames it over `path`.
    static func write(to path: String, _ body: (Int32) throws(DerivedIndexError) -> Void) throws(DerivedIndexError) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("cannot create \(temporary): errno \(errno)") }
        var failure: DerivedIndexError?
        do throws(DerivedIndexError) {
            try body(fd)
        } catch {
            failure = error
        }
        if failure == nil && fsync(fd) != 0 { failure = .io("fsync of \(temporary) failed: errno \(errno)") }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .io("rename to \(path) failed: errno \(errno)")
        }
        // Make the rename itself durable.
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let dfd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }
}
