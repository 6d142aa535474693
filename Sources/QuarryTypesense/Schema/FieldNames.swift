/// How an index's attributes become flat, typed Typesense fields, and how
/// indices become collections. Each field kind has a prefix; the attribute's
/// path (`brand`, `categories.lvl0`) follows, encoded so that any name is a
/// valid field name and decodes back. The original record travels whole in
/// `record`, so hits come back exactly as saved (key order, types, nesting).
public enum FieldNames {
    /// The record as saved, JSON text; stored, not indexed.
    public static let record = "_q_record"
    /// The paths of the attributes a record holds (string[], facet): `NOT`
    /// filters keep records that lack the attribute, as the engine does.
    public static let present = "_q_present"
    /// `_geoloc`, one or more points (geopoint[]).
    public static let geo = "_q_geo"

    /// Text of a searchable attribute, every leaf string (string[]).
    public static func searchable(_ path: String) -> String { "s_" + encode(path) }
    /// Values of a facet attribute (and `_tags`) as the engine renders them (string[], facet).
    public static func facet(_ path: String) -> String { "f_" + encode(path) }
    /// Every numeric value of an attribute (float[]), for numeric filters.
    public static func numeric(_ path: String) -> String { "n_" + encode(path) }
    /// The first numeric value of an attribute (float, sortable), for customRanking and replica sorts.
    public static func sortable(_ path: String) -> String { "o_" + encode(path) }

    /// The attribute path of a derived field, nil for the fixed fields.
    public static func attribute(ofField field: String) -> String? {
        guard let underscore = field.firstIndex(of: "_"), field.distance(from: field.startIndex, to: underscore) == 1,
              "sfno".contains(field[field.startIndex])
        else { return nil }
        return decode(String(field[field.index(after: underscore)...]))
    }

    // MARK: Collections

    /// Quarry's metadata collection: one document per index (settings, replicas, current collection).
    public static let metaCollection = "quarry__meta"
    /// The alias an index is searched through; it points at the current physical collection.
    public static func alias(ofIndex index: String) -> String { "quarry_" + encode(index) }
    /// A physical collection of an index: a new one per rebuild (settings change, import), swapped in by the alias.
    public static func collection(ofIndex index: String, generation: Int) -> String { "quarry_\(encode(index))_\(generation)" }

    // MARK: Encoding

    /// Letters and digits stay; every other byte of the UTF-8 text (`_` included) becomes `_XX` in hex.
    public static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "_" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// The inverse of `encode`; nil for text `encode` cannot have made.
    public static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "_") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
