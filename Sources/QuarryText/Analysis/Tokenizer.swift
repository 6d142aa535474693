/// Where are the words of a text, and what are they once normalised?
///
/// Walks the UTF-8 of a string once, folding scalars with `Normalizer`, and reports each word with
/// its normalised bytes and its byte range in the original text (so highlights and match ranges can
/// point back into the value the user stored).
package struct Tokenizer {
    /// Reused across calls so tokenising allocates nothing per word.
    private var word: [UInt8] = []

    package init() { word.reserveCapacity(64) }

    /// Calls `body(normalised, originalStart, originalEnd)` for each word of `text`, in order.
    /// Offsets are UTF-8 byte offsets into `text`.
    package mutating func forEachWord(in text: String, _ body: ([UInt8], Int, Int) -> Void) {
        var text = text
        text.withUTF8 { utf8 in
            tokenize(utf8, body)
        }
    }

    private mutating func tokenize(_ utf8: UnsafeBufferPointer<UInt8>, _ body: ([UInt8], Int, Int) -> Void) {
        var index = 0
        var start = -1
        word.removeAll(keepingCapacity: true)
        let count = utf8.count
        while index < count {
            let inWord: Bool, next: Int
            if utf8[index] < 0x80 {
                // ASCII, most of most text: a run of letters and digits is copied at once and lower-cased in
                // place, where folding byte by byte paid an append's checks for each.
                var end = index
                while end < count && Self.isASCIIWordByte(utf8[end]) { end += 1 }
                inWord = end > index
                if inWord { appendLowercased(UnsafeBufferPointer(rebasing: utf8[index..<end])) }
                next = inWord ? end : index + 1
            } else {
                let (scalar, length) = Self.decode(utf8, at: index)
                inWord = Normalizer.fold(scalar, into: &word)
                next = index + length
            }
            if inWord {
                if start < 0 { start = index }
            } else if start >= 0 {
                if !word.isEmpty { body(word, start, index) }
                word.removeAll(keepingCapacity: true)
                start = -1
            }
            index = next
        }
        if start >= 0 && !word.isEmpty { body(word, start, count) }
    }

    /// The ASCII bytes `Normalizer.fold` keeps: letters and digits.
    @inline(__always)
    private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        let letter = byte | 0x20
        return (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Appends ASCII letters and digits, lower-cased: setting bit 5 lowers a letter and leaves a digit as it is.
    private mutating func appendLowercased(_ run: UnsafeBufferPointer<UInt8>) {
        let from = word.count
        word.append(contentsOf: run)
        word.withUnsafeMutableBufferPointer { bytes in
            for i in from..<bytes.count { bytes[i] |= 0x20 }
        }
    }

    /// Decodes the scalar at `index` of valid UTF-8 (Swift strings always are).
    @inline(__always)
    static func decode(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let b0 = UInt32(utf8[index])
        if b0 < 0x80 { return (Unicode.Scalar(UInt8(b0)), 1) }
        var value: UInt32
        var length: Int
        if b0 < 0xE0 { value = b0 & 0x1F; length = 2 }
        else if b0 < 0xF0 { value = b0 & 0x0F; length = 3 }
        else { value = b0 & 0x07; length = 4 }
        let end = min(index + length, utf8.count)
        var i = index + 1
        while i < end { value = (value << 6) | (UInt32(utf8[i]) & 0x3F); i += 1 }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", end - index)
    }
}
