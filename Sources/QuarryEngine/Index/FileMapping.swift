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
    /// The mapped file, open until `deinit`, read around the mapping by `checksum(length:)`.
    private let fd: Int32

    convenience init(path: String) throws(DerivedIndexError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .io("cannot open \(path): errno \(errno)")
        }
        try self.init(descriptor: fd, path: path)
    }

    /// Maps the file open as `fd`, which the mapping then owns (closed with it, or at once on failure).
    /// With `keepingDescriptor` false it is closed once mapped (the mapping keeps the file), and `checksum`
    /// cannot read the file: a merge's spill files, many at a time under a stream, hold no descriptor.
    init(descriptor fd: Int32, path: String, keepingDescriptor: Bool = true) throws(DerivedIndexError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw .io("cannot stat \(path): errno \(errno)")
        }
        let size = Int(info.st_size)
        guard size > 0 else {
            close(fd)
            raw = UnsafeRawBufferPointer(start: nil, count: 0)
            self.fd = -1
            return
        }
        Self.cacheInSmallPieces(fd: fd, size: size)
        // Not populated: opening maps one structure at a time (`populate`, `releaseResidentPages`), so the
        // daemon never holds the whole file at once.
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapping != MAP_FAILED else {
            close(fd)
            throw .io("cannot map \(path): errno \(errno)")
        }
        raw = UnsafeRawBufferPointer(start: mapping, count: size)
        if keepingDescriptor {
            self.fd = fd
        } else {
            close(fd)
            self.fd = -1
        }
    }

    /// `Checksum.of` the file's first `length` bytes, read with `pread` rather than through the mapping, so
    /// checking a file maps none of it; nil when the file cannot be read.
    func checksum(length: Int) -> UInt64? {
        guard fd >= 0 || length == 0 else { return nil }
        var running = Checksum.Running(length: length)
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 8)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < length {
            let read = pread(fd, buffer.baseAddress, min(chunk, length - offset), off_t(offset))
            guard read > 0 else { return nil }
            running.add(UnsafeRawBufferPointer(rebasing: buffer[0..<read]))
            offset += read
        }
        return running.finish()
    }

    /// Maps the pages of `bytes` (part of `raw`) in one pass before a walk over them, which beats a fault per
    /// 64 KiB; a kernel older than 5.14 refuses it and leaves them to the faults.
    func populate(_ bytes: UnsafeRawBufferPointer) {
        guard let (start, length) = pages(of: bytes) else { return }
        _ = madvise(start, length, MADV_POPULATE_READ)
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

    /// Unmaps from this process the pages spanning `bytes` (a part of this file), as `releaseResidentPages`
    /// does for all of it.
    func releaseResidentPages(of bytes: UnsafeRawBufferPointer) {
        guard let (start, length) = pages(of: bytes) else { return }
        _ = madvise(start, length, MADV_DONTNEED)
    }

    /// The whole pages spanning `bytes`, or nil when they are not in this file (an array on the heap).
    private func pages(of bytes: UnsafeRawBufferPointer) -> (UnsafeMutableRawPointer, Int)? {
        guard let base = raw.baseAddress, let start = bytes.baseAddress, bytes.count > 0 else { return nil }
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
        let from = start - base, to = from + bytes.count
        guard from >= 0, to <= raw.count else { return nil }
        let first = from / page * page, end = min((to + page - 1) / page * page, raw.count)
        return (UnsafeMutableRawPointer(mutating: base + first), end - first)
    }

    deinit {
        if let base = raw.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), raw.count) }
        if fd >= 0 { close(fd) }
    }
}
