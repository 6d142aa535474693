/// How do small unsigned integers become 1 to 4 bytes that decode without a branch?
///
/// The first byte's low 2 bits say how many bytes follow (0…3); the value sits above them, in 6, 14,
/// 22 or 30 bits, little-endian. A decoder reads the length from that byte and masks one 4-byte load,
/// so buffers read this way end with `padding` spare bytes.
enum PrefixVarint {
    static let padding = 8
    static let maxValue: UInt32 = (1 << 30) - 1

    /// How many bytes `value` takes.
    @inline(__always)
    static func length(_ value: UInt32) -> Int {
        value < 1 << 6 ? 1 : value < 1 << 14 ? 2 : value < 1 << 22 ? 3 : 4
    }

    /// Appends `value` (at most `maxValue`).
    @inline(__always)
    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        let (word, count) = encoded(value)
        for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: word >> (8 * i))) }
    }

    /// Writes `value` at `p` of a buffer sized by `length` beforehand; returns the next offset.
    @inline(__always)
    static func write(_ value: UInt32, to bytes: UnsafeMutableBufferPointer<UInt8>, at p: Int) -> Int {
        let (word, count) = encoded(value)
        for i in 0..<count { bytes[p + i] = UInt8(truncatingIfNeeded: word >> (8 * i)) }
        return p + count
    }

    /// The little-endian word whose first `count` bytes encode `value`.
    @inline(__always)
    private static func encoded(_ value: UInt32) -> (word: UInt32, count: Int) {
        let count = length(value)
        return (value << 2 | UInt32(count - 1), count)
    }

    /// The value at `p` and how many bytes it took.
    @inline(__always)
    static func read(_ bytes: UnsafeRawBufferPointer, at p: Int) -> (value: UInt32, length: Int) {
        let word = bytes.loadUnaligned(fromByteOffset: p, as: UInt32.self).littleEndian
        let extra = Int(word & 3)
        return ((word >> 2) & (UInt32.max >> (26 - 8 * extra)), extra + 1)
    }
}
