import QuarryRecords

/// The exact-match keys a document carries in `_q_filter`, so facet and tag
/// filters keep the engine's semantics on Typesense.
///
/// Typesense's string filter (`f:=[v]`) compares tokens, not texts: measured on
/// 0.24.1, `Café` matches `cafe` (diacritics dropped), `a-b`, `a b` and ` a b `
/// match each other, `""` matches nothing, and an indexed token is cut at 100
/// bytes. The engine compares whole texts, lower-cased (tags exactly). So each
/// filterable value becomes one key of lower-case hex digits, which Typesense
/// keeps as a single token: the comparison is then ours, done in Swift exactly
/// as the engine does it. A key is a kind letter (not a hex digit) followed by
/// the hex of `path NUL text`; keys over 100 bytes become `h` + kind + a
/// 128-bit hash, so long values still match exactly (up to hash collisions).
public enum FilterKeys {
    /// The field holding the keys (string[], indexed, not faceted).
    public static let field = "_q_filter"
    /// Typesense 0.24 indexes at most this many bytes of a token.
    static let maxKeyLength = 100

    /// A facet value at `path`, compared ignoring case: the engine's `text.lowercased()`.
    public static func facet(_ path: String, text: String) -> String { key("v", path, text.lowercased()) }

    /// A facet value at `path` whose text spells `number`, matched by a facet filter on the same number.
    public static func facetNumber(_ path: String, _ number: Double) -> String { key("w", path, FacetValues.render(number)) }

    /// A `_tags` value, compared exactly.
    public static func tag(_ text: String) -> String { key("t", "", text) }

    /// The record holds at least one number at `path` (negated numeric filters keep records lacking one).
    public static func hasNumber(_ path: String) -> String { key("n", path, "") }

    /// The record holds two numbers or more at `path`: it has `NumericBounds` fields.
    public static func severalNumbers(_ path: String) -> String { key("r", path, "") }

    /// A number at `path`, for `=` filters: exact in double precision, unlike Typesense's 32-bit floats.
    public static func number(_ path: String, _ value: Double) -> String { key("m", path, FacetValues.render(value)) }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func key(_ kind: Character, _ path: String, _ text: String) -> String {
        var bytes = Array(path.utf8)
        bytes.append(0)
        bytes.append(contentsOf: text.utf8)
        if 1 + 2 * bytes.count <= maxKeyLength { return String(kind) + hex(bytes) }
        return "h" + String(kind) + hash(bytes)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Two FNV-1a passes (forwards and backwards): stable across runs and platforms, unlike `Hasher`.
    private static func hash(_ bytes: [UInt8]) -> String {
        func fnv(_ sequence: some Sequence<UInt8>) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in sequence { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return h
        }
        let parts = [fnv(bytes), fnv(bytes.reversed())]
        return parts.map { part in
            let digits = String(part, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
