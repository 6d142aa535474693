import Foundation

/// How does a character of text compare when searching?
///
/// Folds one Unicode scalar to the bytes it contributes to a normalised word: lower-cased, diacritics
/// stripped (`É` → `e`, `ß` → `ss`), or nothing for a combining mark. Scalars that are neither letters,
/// digits nor marks separate words. Everything is UTF-8 bytes so the dictionary compares bytewise.
/// Shared (its `words`, QuarryText) so that the Typesense backend sends the query as the engine's words.
package enum Normalizer {
    /// Folded forms of U+0080..<U+2000 (Latin, Greek, Cyrillic and their extensions), computed once.
    private static let table = FoldTable()

    /// Appends the folded bytes of `scalar` to `output`; returns `false` when the scalar separates words.
    @inline(__always)
    static func fold(_ scalar: Unicode.Scalar, into output: inout [UInt8]) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            let byte = UInt8(truncatingIfNeeded: value)
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                output.append(byte)
                return true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                output.append(byte | 0x20)
                return true
            default:
                return false
            }
        }
        if value < FoldTable.limit { return table.fold(Int(value), into: &output) }
        let properties = scalar.properties
        if properties.generalCategory == .nonspacingMark { return true }
        guard properties.isAlphabetic || properties.numericType != nil else { return false }
        output.append(contentsOf: properties.lowercaseMapping.utf8)
        return true
    }

    /// The normalised words of `text`, in order.
    package static func words(of text: String) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        var inWord = false
        for scalar in text.unicodeScalars {
            if fold(scalar, into: &current) {
                inWord = true
            } else if inWord {
                if !current.isEmpty { words.append(current) }
                current.removeAll(keepingCapacity: true)
                inWord = false
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

/// Folded bytes of the scalars below `limit`, with a word flag per scalar.
private struct FoldTable: Sendable {
    static let limit: UInt32 = 0x2000
    /// Letters Foundation's diacritic folding leaves alone but users expect stripped.
    private static let extra: [UInt32: String] = [
        0xF8: "o", 0xD8: "o", 0x142: "l", 0x141: "l", 0x111: "d", 0x110: "d", 0x127: "h", 0x126: "h",
        0x131: "i", 0xE6: "ae", 0xC6: "ae", 0x153: "oe", 0x152: "oe", 0xFE: "th", 0xDE: "th",
    ]
    private let bytes: [UInt8]
    /// Per scalar: start offset in `bytes`, or -1 for a separator; the end is the next entry's start.
    private let starts: [Int32]

    init() {
        var bytes: [UInt8] = []
        var starts = [Int32](repeating: -1, count: Int(Self.limit) + 1)
        for value in 0x80..<Self.limit {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            let folded: String
            if properties.generalCategory == .nonspacingMark {
                folded = ""
            } else if properties.isAlphabetic || properties.numericType != nil {
                folded = Self.extra[value]
                    ?? String(Character(scalar)).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            } else {
                continue
            }
            starts[Int(value)] = Int32(bytes.count)
            // Foundation may leave a combining mark behind; drop anything that is not itself a word part.
            for s in folded.unicodeScalars where s.properties.generalCategory != .nonspacingMark {
                bytes.append(contentsOf: String(s).lowercased().utf8)
            }
        }
        self.bytes = bytes
        // Fill the end offsets: a separator's slot keeps -1, and lookups find the end by the next non-negative start.
        var ends = [Int32](repeating: Int32(bytes.count), count: Int(Self.limit) + 1)
        var next = Int32(bytes.count)
        for value in stride(from: Int(Self.limit) - 1, through: 0, by: -1) {
            ends[value] = next
            if starts[value] >= 0 { next = starts[value] }
        }
        self.starts = starts
        self.ends = ends
    }

    private let ends: [Int32]

    @inline(__always)
    func fold(_ value: Int, into output: inout [UInt8]) -> Bool {
        let start = Int(starts[value])
        if start < 0 { return false }
        let end = Int(ends[value])
        if end > start { output.append(contentsOf: bytes[start..<end]) }
        return true
    }
}
