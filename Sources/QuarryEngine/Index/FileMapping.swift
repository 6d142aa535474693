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
        Self.cacheInSmallPieces(fd: fd, size: size)
        // Populated up front: opening reads and checks every byte anyway, and one pass beats a fault per page.
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), mapping != MAP_FAILED else {
            throw .io("cannot map \(path): errno \(errno)")
        }
        raw = UnsafeRawBufferPointer(start: mapping, count: size)
    }

    /// Reads into the page cache, with read-ahead off, whatever part of the file it does not hold yet.
    ///
    /// The page cache keeps a file in pieces (folios) as large as the reads or writes that brought it
    /// in, and a search touching one byte of a mapped piece maps all of it. Read-ahead, a populating map
    /// included, caches a cold file in pieces of up to megabytes; reads with read-ahead off cache it page
    /// by page, so a search's fault maps only the 64 KiB around it. Costs a read of the uncached part
    /// (about 0.9 GB/s here), nothing for a file cached since `BinaryWriter` wrote it in small pieces.
    private static func cacheInSmallPieces(fd: Int32, size: Int) {
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1), pages = (size + page - 1) / page
        guard let probe = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), probe != MAP_FAILED else { return }
        defer { munmap(probe, size) }
        var cached = [UInt8](repeating: 0, count: pages)
        guard mincore(probe, size, &cached) == 0, cached.contains(where: { $0 & 1 == 0 }) else { return }
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: page)
        defer { buffer.deallocate() }
        var first = 0
        while first < pages {
            guard cached[first] & 1 == 0 else { first += 1; continue }
            var end = first + 1
            while end < pages && cached[end] & 1 == 0 && (end - first) * page < chunk { end += 1 }
            // A failed read only leaves those pages to the populating map.
            _ = pread(fd, buffer, min(end * page, size) - first * page, off_t(first * page))
            first = end
        }
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
