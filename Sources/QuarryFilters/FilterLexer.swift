/// A token of the `filters` language, with the character offset it starts at.
struct FilterToken: Equatable {
    enum Kind: Equatable {
        /// Unquoted text: a name, a value, a number or a keyword.
        case word(String)
        /// Text in single or double quotes, escapes resolved.
        case quoted(String)
        case openParen
        case closeParen
        case colon
        case comparison(NumericOperator)
        case end
    }

    var kind: Kind
    var position: Int

    /// `AND`, `OR`, `NOT` or `TO` written unquoted (keywords are upper-case only).
    func isKeyword(_ keyword: String) -> Bool {
        if case .word(let word) = kind { word == keyword } else { false }
    }

    /// The text of a name or value token that is not a keyword.
    var text: String? {
        switch kind {
        case .word(let word): FilterLexer.keywords.contains(word) ? nil : word
        case .quoted(let text): text
        default: nil
        }
    }
}

/// Splits a `filters` string into tokens, one at a time, so that errors come
/// out in reading order.
///
/// It works on Unicode scalars, and positions count them: grouping into
/// `Character`s would glue a combining mark onto a preceding quote or
/// parenthesis and hide it. (For text without combining marks or emoji
/// sequences, scalars and characters are the same.) Unquoted words run until
/// whitespace or one of `( ) : < > = ! " '`; quoted text runs to the matching
/// quote, a backslash taking the next scalar literally.
struct FilterLexer {
    static let keywords: Set<String> = ["AND", "OR", "NOT", "TO"]

    private let scalars: [Unicode.Scalar]
    private var offset = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func next() throws(FilterSyntaxError) -> FilterToken {
        while offset < scalars.count, scalars[offset].properties.isWhitespace { offset += 1 }
        let start = offset
        guard offset < scalars.count else { return FilterToken(kind: .end, position: start) }
        let scalar = scalars[offset]
        offset += 1
        switch scalar {
        case "(": return FilterToken(kind: .openParen, position: start)
        case ")": return FilterToken(kind: .closeParen, position: start)
        case ":": return FilterToken(kind: .colon, position: start)
        case "=": return FilterToken(kind: .comparison(.equal), position: start)
        case "<": return FilterToken(kind: .comparison(takeEquals() ? .lessOrEqual : .less), position: start)
        case ">": return FilterToken(kind: .comparison(takeEquals() ? .greaterOrEqual : .greater), position: start)
        case "!":
            guard takeEquals() else { throw FilterSyntaxError(position: start + 1, message: "expected '=' after '!'") }
            return FilterToken(kind: .comparison(.notEqual), position: start)
        case "\"", "'":
            return FilterToken(kind: .quoted(try quoted(closing: scalar, start: start)), position: start)
        default:
            while offset < scalars.count, Self.isWordScalar(scalars[offset]) { offset += 1 }
            return FilterToken(kind: .word(Self.string(scalars[start..<offset])), position: start)
        }
    }

    private mutating func takeEquals() -> Bool {
        guard offset < scalars.count, scalars[offset] == "=" else { return false }
        offset += 1
        return true
    }

    private mutating func quoted(closing: Unicode.Scalar, start: Int) throws(FilterSyntaxError) -> String {
        var text = String.UnicodeScalarView()
        while offset < scalars.count {
            let scalar = scalars[offset]
            offset += 1
            if scalar == closing { return String(text) }
            if scalar == "\\" {
                guard offset < scalars.count else { break }
                text.append(scalars[offset])
                offset += 1
            } else {
                text.append(scalar)
            }
        }
        throw FilterSyntaxError(position: start, message: "unterminated string")
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return false }
        switch scalar {
        case "(", ")", ":", "<", ">", "=", "!", "\"", "'": return false
        default: return true
        }
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
