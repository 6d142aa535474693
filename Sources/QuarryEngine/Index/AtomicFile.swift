#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How are whole files written so that a crash never leaves half of one, (see `FileMapping` for how they are read)?
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(DerivedIndexError) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("cannot create \(temporary): errno \(errno)") }
        var failure: DerivedIndexError?
        bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .io("write to \(temporary) failed: errno \(errno)")
                    return
                }
                written += n
            }
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
