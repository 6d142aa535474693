/// How do arrays of plain integers become bytes in a file, and back, without per-element work?
///
/// Each array is its element count (UInt64) followed by its raw little-endian bytes, padded to 8.
/// The reader copies each array out of the file image with one memcpy and checks every length first.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write<T: BitwiseCopyable>(array: [T]) {
        write(UInt64(array.count))
        array.withUnsafeBytes { bytes.append(contentsOf: $0) }
        while bytes.count % 8 != 0 { bytes.append(0) }
    }

    mutating func write<T>(array: StoredArray<T>) {
        write(UInt64(array.count))
        array.withUnsafeBytes { bytes.append(contentsOf: $0) }
        while bytes.count % 8 != 0 { bytes.append(0) }
    }

    mutating func patch(_ value: UInt64, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for i in 0..<8 { bytes[offset + i] = raw[i] }
        }
    }
}

struct BinaryReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    /// The mapping `bytes` lie in, if any: `readStored` then leaves arrays in place.
    let mapping: FileMapping?

    init(_ bytes: UnsafeRawBufferPointer, offset: Int, mapping: FileMapping? = nil) {
        self.bytes = bytes
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

    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(DerivedIndexError) -> [T] {
        let count = try readInt(max: bytes.count)
        let length = count * MemoryLayout<T>.stride
        guard offset + length <= bytes.count else { throw .corrupt("array of \(count) overruns the file at byte \(offset)") }
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

    /// An array like `readArray`'s, left in place when the reader reads a mapping (then 8-aligned,
    /// as every array in the file starts on an 8-byte boundary and a mapping on a page).
    mutating func readStored<T: BitwiseCopyable>(of type: T.Type) throws(DerivedIndexError) -> StoredArray<T> {
        guard let mapping, let base = bytes.baseAddress, let mapped = mapping.raw.baseAddress,
              base >= mapped, base + bytes.count <= mapped + mapping.raw.count
        else { return StoredArray(try readArray(of: T.self)) }
        let count = try readInt(max: bytes.count)
        let length = count * MemoryLayout<T>.stride
        guard offset + length <= bytes.count else { throw .corrupt("array of \(count) overruns the file at byte \(offset)") }
        let start = (base - mapped) + offset
        guard start % MemoryLayout<T>.alignment == 0 else { throw .corrupt("misaligned array at byte \(offset)") }
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
        let seed: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (seed, seed ^ 0x1, seed ^ 0x2, seed ^ 0x3)
        @inline(__always) func mix(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let m = (h ^ (w &* 0x9E37_79B9_7F4A_7C15)) &* 0xC2B2_AE3D_27D4_EB4F
            return m ^ (m >> 29)
        }
        let words = bytes.count / 8, blocks = words / 4
        for i in 0..<blocks {
            let at = i * 32
            lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            lanes.1 = mix(lanes.1, bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, bytes.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self))
        }
        var h = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        for i in (blocks * 4)..<words {
            h = mix(h, bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
        }
        for i in (words * 8)..<bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
        }
        return h
    }

    static func fnv(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
