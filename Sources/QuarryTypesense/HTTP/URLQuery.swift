import QuarryJSON

/// Percent-encoding for query strings and path segments. Everything but
/// RFC 3986's unreserved characters is encoded, so filter syntax (`:=[`, `&&`,
/// backticks), spaces and any Unicode (U+E000 highlight tags) pass intact.
public enum URLQuery {
    /// `name=value&…` from the pairs in order; an empty list gives "".
    public static func encode(_ pairs: [(String, String)]) -> String {
        var out = ""
        for (name, value) in pairs {
            if !out.isEmpty { out += "&" }
            out += escape(name) + "=" + escape(value)
        }
        return out
    }

    /// A JSON object's members as query pairs: strings as they are, numbers and
    /// booleans as JSON writes them, arrays and objects as their JSON text.
    public static func encode(_ parameters: JSONObject) -> String {
        encode(parameters.map { ($0.key, text(of: $0.value)) })
    }

    /// One value as a query parameter's text.
    public static func text(of value: JSON) -> String {
        switch value {
        case .string(let s): s
        default: JSONWriter.string(value)
        }
    }

    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hexDigit(byte >> 4))
                out.unicodeScalars.append(hexDigit(byte & 15))
            }
        }
        return out
    }

    private static func hexDigit(_ nibble: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }
}
