/// Where, in the editor's own units, are the matched spans of a value?
///
/// Converts UTF-8 byte offsets into offsets in the client's position encoding (UTF-8 bytes, UTF-16
/// code units or code points, as LSP's `positionEncoding`). Offsets are always counted from the value's
/// first unit.
enum MatchRanges {
    static func convert(_ spans: [(Int, Int)], in text: String, to encoding: PositionEncoding) -> [(Int, Int)] {
        guard encoding != .utf8 else { return spans }
        let astral = encoding == .utf16 ? 2 : 1  // units for a scalar beyond the BMP
        // One pass over the UTF-8, keeping a running count of units; spans are ascending. A scalar's
        // length and whether it lies beyond the BMP both show in its lead byte.
        var text = text
        return text.withUTF8 { utf8 in
            var result: [(Int, Int)] = []
            var byte = 0, unit = 0
            func advance(to target: Int) -> Int {
                while byte < target && byte < utf8.count {
                    let lead = utf8[byte]
                    let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    unit += length == 4 ? astral : 1
                    byte += length
                }
                return unit
            }
            for (start, end) in spans {
                let s = advance(to: start)
                result.append((s, advance(to: end)))
            }
            return result
        }
    }
}
