import QuarryJSON

/// What documents need of facet texts beyond the engine's `FacetValues` (whose leaves, texts,
/// numbers and `_geoloc` points the document builder uses as they are).
enum FacetText {
    /// The number a facet text spells, as the engine's facet column reads it (plain decimal notation).
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty,
              text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B })
        else { return nil }
        guard let d = Double(text), d.isFinite else { return nil }
        return d
    }

    /// Typesense counts facet values case- and accent-blind (`Red` and `red` came back as `Red: 2`);
    /// the engine counts each text. A facet field therefore holds each text followed by a private-use
    /// mark and a hash of the exact text, so texts that fold alike stay apart; `decode` strips it.
    static let mark: Character = "\u{E002}"

    static func encode(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over the exact UTF-8
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return text + String(mark) + String(hash, radix: 16)
    }

    /// The text of a facet value as Typesense returns it (values without the mark are returned as they are).
    static func decode(_ value: String) -> String {
        // Byte by byte from the end (the mark is EE 80 82 in UTF-8, the hash after it ASCII):
        // a `Character` search would break graphemes over every value of every facet counted.
        let utf8 = value.utf8
        var i = utf8.endIndex
        while i != utf8.startIndex {
            i = utf8.index(before: i)
            guard utf8[i] == 0xEE else { continue }
            let next = utf8.index(after: i)
            if next != utf8.endIndex, utf8[next] == 0x80, utf8.index(after: next) != utf8.endIndex,
               utf8[utf8.index(after: next)] == 0x82 {
                return String(value[..<i])
            }
        }
        return value
    }
}
