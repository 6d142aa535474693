/// How the filter language reads and writes numbers.
///
/// Reading validates the syntax itself rather than trusting `Double(_:)`,
/// which would also accept `inf`, `nan` and hexadecimal.
enum FilterNumber {
    /// `[-] (digits [. digits*] | . digits) [(e|E) [+|-] digits]`, or nil.
    static func parse(_ text: Substring) -> Double? {
        guard isLiteral(text) else { return nil }
        return Double(text)
    }

    static func parse(_ text: String) -> Double? { parse(text[...]) }

    static func isLiteral(_ text: Substring) -> Bool {
        var utf8 = text.utf8[...]
        if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        let integerDigits = utf8.prefix(while: isDigit).count
        utf8 = utf8.dropFirst(integerDigits)
        var fractionDigits = 0
        if utf8.first == UInt8(ascii: ".") {
            utf8 = utf8.dropFirst()
            fractionDigits = utf8.prefix(while: isDigit).count
            utf8 = utf8.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if utf8.first == UInt8(ascii: "e") || utf8.first == UInt8(ascii: "E") {
            utf8 = utf8.dropFirst()
            if utf8.first == UInt8(ascii: "+") || utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
            let exponentDigits = utf8.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            utf8 = utf8.dropFirst(exponentDigits)
        }
        return utf8.isEmpty
    }

    /// The shortest text that reads back as the same number: `20`, `10.5`, `1e+20`.
    static func render(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
