#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuarrySearchContract

/// A file read forward one byte at a time from a fixed 1 MiB buffer, so an
/// import's memory does not grow with the file.
package final class ImportFileBytes {
    package static let defaultBufferSize = 1 << 20

    let path: String
    package let totalBytes: Int64
    private let descriptor: Int32
    private var buffer: [UInt8]
    private var position = 0
    private var count = 0
    private var bufferStart: Int64 = 0

    init(path: String, bufferSize: Int = defaultBufferSize) throws(BackendError) {
        self.path = path
        buffer = [UInt8](repeating: 0, count: max(bufferSize, 1))
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == EMFILE || errno == ENFILE || errno == ENOMEM { throw .system(errno, "cannot open \(path)") }
            throw .invalidParameter(name: "path", expected: "a readable file (\(path): \(String(cString: strerror(errno))))")
        }
        var info = stat()
        totalBytes = fstat(descriptor, &info) == 0 ? Int64(info.st_size) : 0
    }

    deinit { close(descriptor) }

    /// Bytes consumed so far: the offset of the next byte.
    package var offset: Int64 { bufferStart + Int64(position) }

    func next() throws(BackendError) -> UInt8? {
        if position == count, try !refill() { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    /// Appends the bytes up to the next `\n` (not included) to `line`, and
    /// consumes the `\n`; false when the file had no byte left. Scans the
    /// buffer a block at a time: NDJSON imports read every byte through here.
    func readLine(into line: inout [UInt8]) throws(BackendError) -> Bool {
        var sawByte = false
        while true {
            if position == count, try !refill() { return sawByte }
            sawByte = true
            let start = position, end = count
            let newline: Int? = buffer.withUnsafeBufferPointer { all in
                guard let base = all.baseAddress, let found = memchr(base + start, 0x0A, end - start) else { return nil }
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            }
            line.append(contentsOf: buffer[start..<(newline ?? end)])
            if let newline {
                position = newline + 1
                return true
            }
            position = end
        }
    }

    func peek() throws(BackendError) -> UInt8? {
        if position == count, try !refill() { return nil }
        return buffer[position]
    }

    private func refill() throws(BackendError) -> Bool {
        bufferStart += Int64(count)
        position = 0
        count = 0
        while true {
            let result = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if result >= 0 {
                count = result
                return result > 0
            }
            if errno != EINTR { throw .system(errno, "cannot read \(path)") }
        }
    }
}

extension UInt8 {
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
