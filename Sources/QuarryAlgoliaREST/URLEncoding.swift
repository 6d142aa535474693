/// Percent-decoding of paths, query strings and Algolia's `params` strings (form encoding, `+` as space).
enum URLEncoding {
    /// `a=1&b=x%20y` as name → value, percent-decoded; a repeated name keeps its last value.
    static func items(_ text: Substring) -> [String: String] {
        var items: [String: String] = [:]
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(halves[0], plusIsSpace: true)
            items[name] = halves.count == 2 ? decode(halves[1], plusIsSpace: true) : ""
        }
        return items
    }

    /// Percent-decodes; a `%` not followed by two hex digits is kept as it is, and invalid UTF-8 is replaced.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let high = hexValue(iterator[iterator.startIndex]),
               let low = hexValue(iterator[iterator.startIndex + 1]) {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else if byte == UInt8(ascii: "+"), plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
