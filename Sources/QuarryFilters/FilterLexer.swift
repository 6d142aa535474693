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

    var isAnyKeyword: Bool {
        if case .word(let word) = kind { FilterLexer.keywords.contains(word) } else { false }
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
/// Positions count `Character`s. Unquoted words run until whitespace or one of
/// `( ) : < > = ! " '`; quoted text runs to the matching quote, a backslash
/// taking the next character literally.
struct FilterLexer {
    static let keywords: Set<String> = ["AND", "OR", "NOT", "TO"]

    private let characters: [Character]
    private var offset = 0

    init(_ text: String) {
        characters = Array(text)
    }

    mutating func next() throws(FilterSyntaxError) -> FilterToken {
        while offset < characters.count, characters[offset].isWhitespace { offset += 1 }
        let start = offset
        guard offset < characters.count else { return FilterToken(kind: .end, position: start) }
        let character = characters[offset]
        offset += 1
        switch character {
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
            return FilterToken(kind: .quoted(try quoted(closing: character, start: start)), position: start)
        default:
            while offset < characters.count, Self.isWordCharacter(characters[offset]) { offset += 1 }
            return FilterToken(kind: .word(String(characters[start..<offset])), position: start)
        }
    }

    private mutating func takeEquals() -> Bool {
        guard offset < characters.count, characters[offset] == "=" else { return false }
        offset += 1
        return true
    }

    private mutating func quoted(closing: Character, start: Int) throws(FilterSyntaxError) -> String {
        var text = ""
        while offset < characters.count {
            let character = characters[offset]
            offset += 1
            if character == closing { return text }
            if character == "\\" {
                guard offset < characters.count else { break }
                text.append(characters[offset])
                offset += 1
            } else {
                text.append(character)
            }
        }
        throw FilterSyntaxError(position: start, message: "unterminated string")
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        if character.isWhitespace { return false }
        switch character {
        case "(", ")", ":", "<", ">", "=", "!", "\"", "'": return false
        default: return true
        }
    }
}
