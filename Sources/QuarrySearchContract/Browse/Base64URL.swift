/// Base64url without padding (RFC 4648 §5): browse cursors travel in JSON,
/// URLs and shell variables, so they use no `+`, `/` or `=`.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = UInt32(bytes[i]) << 16
            if n > 1 { chunk |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { chunk |= UInt32(bytes[i + 2]) }
            for k in 0...n { out.append(alphabet[Int((chunk >> UInt32(18 - 6 * k)) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// nil when `text` is not base64url.
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var chunk: UInt32 = 0, bits = 0
        for c in text.utf8 {
            let v = values[Int(c)]
            guard v >= 0 else { return nil }
            chunk = chunk << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((chunk >> UInt32(bits)) & 0xFF))
            }
        }
        // Leftover bits must be padding zeros from the encoder; a lone sixth of a byte is malformed.
        guard bits < 6, chunk & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
