/// The bytes a JSON string cannot hold as they are: a quote, a backslash or a control character.
/// Tested eight at a time, for the parser's and the writer's walks over long strings.
enum EscapedBytes {
    static let lowBits: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether a byte of `word` is a quote, a backslash or a control character: each test is nonzero
    /// exactly when some byte is zero (or below 0x20) after the comparison, whatever the others hold.
    @inline(__always)
    static func holdsOne(_ word: UInt64) -> Bool {
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- lowBits) & ~x & highBits }
        let quote = zeroByte(word ^ (lowBits &* UInt64(UInt8(ascii: "\""))))
        let backslash = zeroByte(word ^ (lowBits &* UInt64(UInt8(ascii: "\\"))))
        let control = (word &- lowBits &* 0x20) & ~word & highBits
        return quote | backslash | control != 0
    }
}
