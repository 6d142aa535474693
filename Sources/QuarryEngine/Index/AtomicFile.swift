#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How are whole files written so that a crash never leaves half of one, and read in one go?
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

    /// Runs `body` over the file's bytes mapped read-only: reading a large
    /// index this way skips the zeroed buffer and the copy `read` would make.
    /// Files are only ever replaced by rename, so a mapping never sees one shrink.
    static func withMapped<T>(_ path: String, _ body: (UnsafeRawBufferPointer) -> T) throws(DerivedIndexError) -> T {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .io("cannot open \(path): errno \(errno)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot stat \(path): errno \(errno)") }
        let size = Int(info.st_size)
        guard size > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), mapping != MAP_FAILED else {
            throw .io("cannot map \(path): errno \(errno)")
        }
        defer { munmap(mapping, size) }
        _ = madvise(mapping, size, MADV_SEQUENTIAL)
        return body(UnsafeRawBufferPointer(start: mapping, count: size))
    }
}
