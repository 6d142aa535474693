#if canImport(Glibc)
import Glibc
#endif

/// How do arrays of plain integers become bytes in a file, and back, without per-element work?
///
/// Each array is its element count (UInt64) followed by its raw little-endian bytes, padded to 8.
/// The writer streams them to the file through a small buffer, checksumming as it goes, so saving a
/// large index does not assemble the whole file in memory first. The reader copies each array out of
/// the file image with one memcpy (or leaves it in place, `readStored`) and checks every length first.
struct BinaryWriter {
    /// Bytes written so far.
    private(set) var count = 0
    /// Where the bytes go; nil when only counting them (to learn a file's length before writing it).
    private let fd: Int32?
    private var buffer: [UInt8] = []
    private var checksum: Checksum.Running
    private var sealed = false
    /// The first write's errno, once one failed; later bytes are dropped and `finish` reports it.
    private var failure: Int32?
    /// Also the most one `write` call is given: the page cache keeps a file in pieces (folios) as large
    /// as the writes that made it, and a search touching one byte of a mapped piece maps all of it.
    /// 64 KiB is what the kernel maps around a fault anyway (fault-around). After the same keystrokes on
    /// a 1M-record index, 205 MiB of its file was resident when written in 1 MiB writes, 135 in 64 KiB ones.
    private static let bufferSize = 64 << 10

    /// Where the arrays written go, for the file's read-back to share (`ArrayShelf`).
    private let shelf: ArrayShelf?

    /// A writer that only counts.
    init() {
        fd = nil
        shelf = nil
        checksum = Checksum.Running(length: 0)
    }

    /// A writer that streams to `fd`, checksumming the first `checksummedLength` bytes (see `seal`).
    init(fd: Int32, checksummedLength: Int, shelf: ArrayShelf? = nil) {
        self.fd = fd
        self.shelf = shelf
        checksum = Checksum.Running(length: checksummedLength)
        buffer.reserveCapacity(Self.bufferSize)
    }

    mutating func write(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { append($0) }
    }

    /// Keeps `value`, made from what is written next, for the file's read-back (`ArrayShelf`).
    func shelve<Value>(_ value: Value) {
        shelf?.keep(value, at: count)
    }

    mutating func write<T: BitwiseCopyable>(array: [T]) {
        shelve(array)
        array.withUnsafeBytes { write(count: array.count, elements: $0) }
    }

    /// An array read in place from a file is let go of as it is written, a few MiB at a time, so that a save
    /// never holds a large one whole (a merged segment's postings in its spill file: 200 MiB at 1M records).
    mutating func write<T>(array: StoredArray<T>) {
        guard array.isMapped, fd != nil else {
            array.withUnsafeBytes { write(count: array.count, elements: $0) }
            return
        }
        write(UInt64(array.count))
        var window = WalkWindow(array)
        let stride = MemoryLayout<T>.stride
        var start = 0
        while start < array.count {
            let end = min(start + window.step, array.count)
            window.reach(start)
            array.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[start * stride..<end * stride])) }
            start = end
        }
        window.finish()
        pad()
    }

    private mutating func write(count: Int, elements: UnsafeRawBufferPointer) {
        write(UInt64(count))
        append(elements)
        pad()
    }

    private mutating func pad() {
        let padding = (8 - self.count % 8) % 8
        if padding > 0 { withUnsafeBytes(of: UInt64(0)) { append(UnsafeRawBufferPointer(rebasing: $0[0..<padding])) } }
    }

    /// The checksum of every byte written so far; what follows (the footer) is not checksummed.
    mutating func seal() -> UInt64 {
        flush()
        sealed = true
        return checksum.finish()
    }

    /// Writes out what is buffered; throws if any write failed.
    mutating func finish() throws(DerivedIndexError) {
        flush()
        if let failure { throw .io("write failed: errno \(failure)") }
    }

    private mutating func append(_ raw: UnsafeRawBufferPointer) {
        count += raw.count
        guard fd != nil, raw.count > 0 else { return }
        if buffer.count + raw.count > Self.bufferSize { flush() }
        if raw.count >= Self.bufferSize {
            Self.output(raw, to: fd, sealed: sealed, checksum: &checksum, failure: &failure)
        } else {
            buffer.append(contentsOf: raw)
        }
    }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        // Written from the buffer in place (a copy to hand to `output` would allocate per flush).
        buffer.withUnsafeBytes { Self.output($0, to: fd, sealed: sealed, checksum: &checksum, failure: &failure) }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func output(_ raw: UnsafeRawBufferPointer, to fd: Int32?, sealed: Bool, checksum: inout Checksum.Running,
                               failure: inout Int32?) {
        guard let fd, failure == nil, let base = raw.baseAddress else { return }
        if !sealed { checksum.add(raw) }
        var written = 0
        while written < raw.count {
            let n = Glibc.write(fd, base + written, min(raw.count - written, Self.bufferSize))
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            written += n
        }
    }
}

struct BinaryReader {
    /// The mapping's first bytes, as many as the reader may read.
    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    /// What `readStored` leaves arrays in.
    let mapping: FileMapping
    /// The arrays the save that wrote the file kept, which `readArray` shares rather than copies.
    var shelf: ArrayShelf?

    /// Reads `mapping` from `offset`, up to its byte `length` (the whole mapping when nil).
    init(_ mapping: FileMapping, length: Int? = nil, offset: Int) {
        bytes = UnsafeRawBufferPointer(rebasing: mapping.raw[0..<(length ?? mapping.raw.count)])
        self.offset = offset
        self.mapping = mapping
    }

    mutating func read() throws(DerivedIndexError) -> UInt64 {
        guard offset + 8 <= bytes.count else { throw .corrupt("truncated at byte \(offset)") }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: value)
    }

    mutating func readInt(max: Int) throws(DerivedIndexError) -> Int {
        let value = try read()
        guard value <= UInt64(max) else { throw .corrupt("value \(value) out of range at byte \(offset - 8)") }
        return Int(value)
    }

    /// What the save that wrote the file shelved where the reader stands (`BinaryWriter.shelve`).
    func shelved<Value>() -> Value? {
        shelf?.take(at: offset)
    }

    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(DerivedIndexError) -> [T] {
        let at = offset
        let count = try readInt(max: bytes.count)
        let length = count * MemoryLayout<T>.stride
        guard offset + length <= bytes.count else { throw .corrupt("array of \(count) overruns the file at byte \(offset)") }
        if let shared: [T] = shelf?.take(at: at), shared.count == count {
            offset += (length + 7) & ~7
            return shared
        }
        let start = offset
        let result = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if length > 0, let base = buffer.baseAddress, let source = bytes.baseAddress {
                UnsafeMutableRawPointer(base).copyMemory(from: source + start, byteCount: length)
            }
            initialized = count
        }
        offset += (length + 7) & ~7
        return result
    }

    /// An array like `readArray`'s, left in place in the mapping (8-aligned, as every array in the
    /// file starts on an 8-byte boundary and a mapping on a page).
    mutating func readStored<T: BitwiseCopyable>(of type: T.Type) throws(DerivedIndexError) -> StoredArray<T> {
        let count = try readInt(max: bytes.count)
        let length = count * MemoryLayout<T>.stride
        guard offset + length <= bytes.count else { throw .corrupt("array of \(count) overruns the file at byte \(offset)") }
        guard offset % MemoryLayout<T>.alignment == 0 else { throw .corrupt("misaligned array at byte \(offset)") }
        let start = offset
        offset += (length + 7) & ~7
        return StoredArray(mapping: mapping, offset: start, count: count)
    }
}

/// A fast 64-bit checksum over 8-byte words: catches truncation and flipped bytes, not adversaries.
///
/// Four independent lanes over interleaved words, folded at the end: one lane is a chain of dependent
/// multiplies, which made checking a 1M-record file take a third of reopening it.
enum Checksum {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var running = Running(length: bytes.count)
        running.add(bytes)
        return running.finish()
    }

    /// The same checksum over bytes given in pieces, whose total `length` is known up front (it seeds the lanes).
    struct Running {
        private var lanes: (UInt64, UInt64, UInt64, UInt64)
        /// Fewer than 32 bytes carried to the next piece, so blocks keep their offsets in the whole.
        private var carry: [UInt8] = []

        init(length: Int) {
            let seed: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(length)
            lanes = (seed, seed ^ 0x1, seed ^ 0x2, seed ^ 0x3)
        }

        @inline(__always)
        private static func mix(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let m = (h ^ (w &* 0x9E37_79B9_7F4A_7C15)) &* 0xC2B2_AE3D_27D4_EB4F
            return m ^ (m >> 29)
        }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var start = 0
            if !carry.isEmpty {
                let taken = min(32 - carry.count, bytes.count)
                carry.append(contentsOf: bytes[0..<taken])
                start = taken
                guard carry.count == 32 else { return }
                carry.withUnsafeBytes { block(of: $0, from: 0, blocks: 1) }
                carry.removeAll(keepingCapacity: true)
            }
            let blocks = (bytes.count - start) / 32
            block(of: bytes, from: start, blocks: blocks)
            carry.append(contentsOf: bytes[(start + blocks * 32)...])
        }

        private mutating func block(of bytes: UnsafeRawBufferPointer, from start: Int, blocks: Int) {
            var l = lanes
            for i in 0..<blocks {
                let at = start + i * 32
                l.0 = Self.mix(l.0, bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                l.1 = Self.mix(l.1, bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
                l.2 = Self.mix(l.2, bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
                l.3 = Self.mix(l.3, bytes.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self))
            }
            lanes = l
        }

        /// Folds the lanes, then the last words and bytes (fewer than 32 in all).
        func finish() -> UInt64 {
            var h = Self.mix(Self.mix(Self.mix(lanes.0, lanes.1), lanes.2), lanes.3)
            return carry.withUnsafeBytes { tail in
                let words = tail.count / 8
                for i in 0..<words { h = Self.mix(h, tail.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) }
                for i in (words * 8)..<tail.count { h = (h ^ UInt64(tail[i])) &* 0x0000_0100_0000_01B3 }
                return h
            }
        }
    }

    static func fnv(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
