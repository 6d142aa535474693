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

    static func read(_ path: String) throws(DerivedIndexError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .io("cannot open \(path): errno \(errno)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot stat \(path): errno \(errno)") }
        let size = Int(info.st_size)
        var failure: DerivedIndexError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var done = 0
            while done < size {
                let n = Glibc.read(fd, buffer.baseAddress.map { $0 + done }, size - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            if done < size { failure = .corrupt("short read (\(done) of \(size) bytes)") }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }
}
