#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a large merge writes one of its largest arrays (postings or token positions) instead of the heap.
///
/// A merge held its whole output on the heap until the next save wrote it out and served it from the file:
/// under a stream of batches, the merge of 512,000 documents was most of the peak while loading 1M records
/// (Benchmarks/RESULTS.md). Written here front to back in 64 KiB pieces (as `BinaryWriter` writes an index
/// file, so that the page cache holds it in small pieces), then mapped read-only (`FileMapping`), the array
/// lives in the page cache, and only what searches and the next save read is resident. The file has no
/// name (`O_TMPFILE`, else a name removed at once), so a crash leaves nothing behind, and its blocks are
/// freed with the last segment reading it.
final class SpillFile {
    private static let bufferSize = 64 << 10
    /// Linux's `O_TMPFILE`, a macro Swift does not import.
    private static let unnamed: Int32 = 0o20000000 | O_DIRECTORY

    private let path: String
    private var fd: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var buffered = 0
    /// Bytes appended.
    private(set) var count = 0
    private var failed = false

    /// A new file in `directory`; nil when none can be made there.
    init?(directory: String) {
        var fd = open(directory, Self.unnamed | O_RDWR | O_CLOEXEC, 0o600)
        if fd < 0 {
            // A file system without unnamed files: a name, removed as soon as the file is open.
            var template = Array("\(directory)/.spill-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        guard fd >= 0 else { return nil }
        self.fd = fd
        path = directory
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit {
        if fd >= 0 { close(fd) }
        buffer.deallocate()
    }

    /// Appends at most `length` bytes that `body` writes at the pointer it is given, returning how many it wrote.
    @inline(__always)
    func append(atMost length: Int, _ body: (UnsafeMutableRawPointer) -> Int) {
        if buffered + length > Self.bufferSize { flush() }
        if length > Self.bufferSize {
            let large = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 16)
            defer { large.deallocate() }
            let written = body(large.baseAddress!)
            output(UnsafeRawBufferPointer(rebasing: large[0..<written]))
            count += written
            return
        }
        let written = body(buffer.baseAddress! + buffered)
        buffered += written
        count += written
    }

    /// The bytes appended, read in place from the file; nil when a write failed (a full disk): the merge then
    /// keeps the array on the heap. The file is the array's from then on.
    func finish() -> StoredArray<UInt8>? {
        flush()
        guard !failed, count > 0 else { return failed ? nil : StoredArray() }
        let descriptor = fd
        fd = -1
        guard let mapping = try? FileMapping(descriptor: descriptor, path: path, keepingDescriptor: false) else { return nil }
        return StoredArray(mapping: mapping, offset: 0, count: count)
    }

    private func flush() {
        output(UnsafeRawBufferPointer(rebasing: buffer[0..<buffered]))
        buffered = 0
    }

    private func output(_ bytes: UnsafeRawBufferPointer) {
        guard !failed, let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let n = write(fd, base + written, min(bytes.count - written, Self.bufferSize))
            if n < 0 {
                if errno == EINTR { continue }
                failed = true
                return
            }
            written += n
        }
    }
}
