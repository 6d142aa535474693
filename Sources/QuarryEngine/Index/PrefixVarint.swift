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
        let extra = length(value) - 1
        let word = value << 2 | UInt32(extra)
        for i in 0...extra { bytes.append(UInt8(truncatingIfNeeded: word >> (8 * i))) }
    }

    /// Writes `value` at `p` of a buffer sized by `length` beforehand; returns the next offset.
    @inline(__always)
    static func write(_ value: UInt32, to bytes: UnsafeMutableBufferPointer<UInt8>, at p: Int) -> Int {
        let extra = length(value) - 1
        let word = value << 2 | UInt32(extra)
        for i in 0...extra { bytes[p + i] = UInt8(truncatingIfNeeded: word >> (8 * i)) }
        return p + extra + 1
    }

    /// The value at `p` and how many bytes it took.
    @inline(__always)
    static func read(_ bytes: UnsafeRawBufferPointer, at p: Int) -> (value: UInt32, length: Int) {
        let word = bytes.loadUnaligned(fromByteOffset: p, as: UInt32.self).littleEndian
        let extra = Int(word & 3)
        return ((word >> 2) & (UInt32.max >> (26 - 8 * extra)), extra + 1)
    }
}
