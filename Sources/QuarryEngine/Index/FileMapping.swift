#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole index file mapped read-only for as long as any structure reads from it.
///
/// The packed postings and token positions of a large segment are most of its memory, yet a search
/// touches a small part of them: read in place from the mapping, their pages live in the kernel's
/// page cache (shared, and dropped under pressure) instead of the daemon's heap. Files are only ever
/// replaced by rename, so a mapping never sees one shrink; a replaced file's blocks are freed when the
/// last segment reading it goes.
final class FileMapping: @unchecked Sendable {
    /// Never written through, and valid until `deinit`: what makes sharing it across threads safe.
    let raw: UnsafeRawBufferPointer

    init(path: String) throws(DerivedIndexError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .io("cannot open \(path): errno \(errno)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot stat \(path): errno \(errno)") }
        let size = Int(info.st_size)
        guard size > 0 else {
            raw = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        // Populated up front: opening reads and checks every byte anyway, and one pass of read-ahead
        // beats a fault per page.
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), mapping != MAP_FAILED else {
            throw .io("cannot map \(path): errno \(errno)")
        }
        raw = UnsafeRawBufferPointer(start: mapping, count: size)
    }

    /// Unmaps the pages from this process once opening has read them all; they stay in the page
    /// cache and come back on the next touch, so the daemon holds only what searches read.
    func releaseResidentPages() {
        guard let base = raw.baseAddress else { return }
        // A later fault maps the 64 KiB around the page it needs (the kernel's fault-around, which neither
        // MADV_RANDOM nor MADV_NOHUGEPAGE turned off here): scattered reads of a few documents' tokens
        // thus map most of the token positions within a few dozen keystrokes.
        _ = madvise(UnsafeMutableRawPointer(mutating: base), raw.count, MADV_DONTNEED)
    }

    deinit {
        if let base = raw.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), raw.count) }
    }
}
