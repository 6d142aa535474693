/// Reads Algolia's `filters` string into a `FilterExpression`.
///
/// Grammar (EBNF; whitespace between tokens is ignored):
///
///     filter     = [ sequence ] ;                      (* empty text: no filter *)
///     sequence   = operand { ( "AND" | "OR" ) operand } ;
///     operand    = "(" sequence ")" | [ "NOT" ] atom ;
///     atom       = name ":" number "TO" number         (* numeric range, inclusive *)
///                | name ":" value                      (* facet; `_tags:v` is a tag *)
///                | name comparator number              (* numeric comparison *)
///                | name ;                              (* a bare value is a tag *)
///     comparator = "<" | "<=" | "=" | "!=" | ">=" | ">" ;
///     name       = word | quoted ;
///     value      = word | quoted ;
///     number     = word ;                              (* spelled as below, finite *)
///     spelling   = [ "-" ] ( digit { digit } [ "." { digit } ] | "." digit { digit } )
///                  [ ( "e" | "E" ) [ "+" | "-" ] digit { digit } ] ;
///     word       = wordchar { wordchar } - keyword ;   (* keywords must be quoted to be text *)
///     wordchar   = any Unicode scalar except whitespace and ( ) : < > = ! " ' ;
///     keyword    = "AND" | "OR" | "NOT" | "TO" ;       (* upper-case only *)
///     quoted     = '"' { scalar | "\" scalar } '"'
///                | "'" { scalar | "\" scalar } "'" ;   (* backslash takes the next scalar *)
///
/// Rules beyond the grammar, from Algolia's:
/// - One sequence uses one operator: `a AND b OR c` needs parentheses.
/// - OR joins single filters only: an operand of an OR may be a group of ORs
///   but not a group containing AND (`(a AND b) OR c` is refused).
/// - The filters an OR joins are of one kind: facet, numeric or tag.
/// - NOT applies to one filter, never to a group.
/// - An unquoted facet value is a number if it spells one, a boolean if it is
///   `true` or `false`, else a string; a quoted value is always a string.
///
/// Quarry accepts parentheses around AND groups (`( a AND b ) AND c`), which
/// Algolia's documentation discourages, because InstantSearch renders
/// and-groups that way; they flatten into the top-level AND.
///
/// Errors name the position (a 0-based Unicode scalar offset) and what was
/// expected there: `expected a value after ':' at 14`. The messages:
/// `expected a filter` (optionally `after 'AND'`, `'OR'`, `'NOT'`, `'('`),
/// `expected a value after ':'`, `expected an attribute name before ':'`,
/// `empty attribute name`, `expected a number after '<'` (and each operator,
/// and `'TO'`), `expected a number before 'TO'`, `number out of range`,
/// `expected 'AND', 'OR' or end of input`, `expected 'AND', 'OR' or ')'`,
/// `missing ')'`, `unexpected ')'`, `unterminated string`,
/// `expected '=' after '!'`, `cannot mix AND and OR without parentheses`,
/// `OR cannot join a group that contains AND`,
/// `cannot mix facet and numeric filters in one OR` (and the other kinds),
/// `NOT applies to one filter, not to a group`,
/// `too many nested parentheses (at most 32)`.
public enum FilterParser {
    public static func parse(_ text: String) throws(FilterSyntaxError) -> FilterExpression {
        var parser = try Parser(text)
        if parser.token.kind == .end { return .all }
        let clauses = try parser.sequence(after: nil).clauses
        switch parser.token.kind {
        case .end: return FilterExpression(clauses: clauses)
        case .closeParen: throw FilterSyntaxError(position: parser.token.position, message: "unexpected ')'")
        default: throw parser.error("expected 'AND', 'OR' or end of input")
        }
    }

    /// One filter, optionally negated, and nothing else: a `numericFilters` element.
    static func parseAtom(_ text: String) throws(FilterSyntaxError) -> FilterAtom {
        var parser = try Parser(text)
        let atom = try parser.negatableAtom(after: nil)
        guard parser.token.kind == .end else { throw parser.error("expected end of input") }
        return atom
    }
}

/// The recursive descent itself, one token of lookahead.
private struct Parser {
    /// Deeper nesting is refused rather than risking the stack on hostile input.
    static let maxDepth = 32

    private var lexer: FilterLexer
    private(set) var token: FilterToken
    private var depth = 0

    init(_ text: String) throws(FilterSyntaxError) {
        lexer = FilterLexer(text)
        token = try lexer.next()
    }

    func error(_ message: String) -> FilterSyntaxError {
        FilterSyntaxError(position: token.position, message: message)
    }

    private mutating func advance() throws(FilterSyntaxError) {
        token = try lexer.next()
    }

    /// Operands joined by one operator. OR folds them into one clause; AND
    /// concatenates their clauses.
    mutating func sequence(after context: String?) throws(FilterSyntaxError) -> Operand {
        let first = try operand(after: context)
        var joiner: String?
        var clauses = first.clauses
        while token.isKeyword("AND") || token.isKeyword("OR"), case .word(let keyword) = token.kind {
            if let joiner, joiner != keyword { throw error("cannot mix AND and OR without parentheses") }
            if joiner == nil, keyword == "OR" { try Self.checkJoinable(first, into: nil) }
            joiner = keyword
            try advance()
            let next = try operand(after: keyword)
            if keyword == "AND" {
                clauses += next.clauses
            } else {
                try Self.checkJoinable(next, into: clauses[0])
                clauses[0] += next.clauses[0]
            }
        }
        return Operand(clauses: clauses, position: first.position)
    }

    /// An OR operand must be one clause, of the kind already in the OR.
    private static func checkJoinable(_ operand: Operand, into clause: [FilterAtom]?) throws(FilterSyntaxError) {
        guard operand.clauses.count == 1 else {
            throw FilterSyntaxError(position: operand.position, message: "OR cannot join a group that contains AND")
        }
        guard let kind = clause?.first?.kind else { return }
        if let other = operand.clauses[0].first(where: { $0.kind != kind }) {
            throw FilterSyntaxError(
                position: operand.position,
                message: "cannot mix \(kind.rawValue) and \(other.kind.rawValue) filters in one OR")
        }
    }

    private mutating func operand(after context: String?) throws(FilterSyntaxError) -> Operand {
        let position = token.position
        guard token.kind == .openParen else {
            return Operand(clauses: [[try negatableAtom(after: context)]], position: position)
        }
        guard depth < Self.maxDepth else { throw error("too many nested parentheses (at most \(Self.maxDepth))") }
        depth += 1
        defer { depth -= 1 }
        try advance()
        let inner = try sequence(after: "(")
        switch token.kind {
        case .closeParen: try advance()
        case .end: throw error("missing ')'")
        default: throw error("expected 'AND', 'OR' or ')'")
        }
        return Operand(clauses: inner.clauses, position: position)
    }

    mutating func negatableAtom(after context: String?) throws(FilterSyntaxError) -> FilterAtom {
        guard token.isKeyword("NOT") else { return try atom(after: context) }
        try advance()
        if token.kind == .openParen { throw error("NOT applies to one filter, not to a group") }
        return try atom(after: "NOT").negated
    }

    private mutating func atom(after context: String?) throws(FilterSyntaxError) -> FilterAtom {
        guard let name = token.text else {
            if token.kind == .colon { throw error("expected an attribute name before ':'") }
            throw error(context.map { "expected a filter after '\($0)'" } ?? "expected a filter")
        }
        let nameToken = token
        try advance()
        switch token.kind {
        case .colon:
            if name.isEmpty { throw FilterSyntaxError(position: nameToken.position, message: "empty attribute name") }
            try advance()
            return try facetOrRange(name)
        case .comparison(let op):
            if name.isEmpty { throw FilterSyntaxError(position: nameToken.position, message: "empty attribute name") }
            try advance()
            return .comparison(name, op, try number(after: op.rawValue))
        default:
            return .tag(name)
        }
    }

    private mutating func facetOrRange(_ name: String) throws(FilterSyntaxError) -> FilterAtom {
        guard let text = token.text else { throw error("expected a value after ':'") }
        let valueToken = token
        try advance()
        guard token.isKeyword("TO") else {
            if case .quoted = valueToken.kind { return .facet(name, .string(text)) }
            return .facet(name, try Self.unquotedValue(text, at: valueToken.position))
        }
        guard case .word = valueToken.kind, let lower = try Self.number(text, at: valueToken.position) else {
            throw FilterSyntaxError(position: valueToken.position, message: "expected a number before 'TO'")
        }
        try advance()
        return .range(name, lower, try number(after: "TO"))
    }

    private mutating func number(after context: String) throws(FilterSyntaxError) -> Double {
        guard case .word(let word) = token.kind, let value = try Self.number(word, at: token.position) else {
            throw error("expected a number after '\(context)'")
        }
        try advance()
        return value
    }

    private static func number(_ text: String, at position: Int) throws(FilterSyntaxError) -> Double? {
        guard let value = FilterNumber.parse(text) else { return nil }
        guard value.isFinite else { throw FilterSyntaxError(position: position, message: "number out of range") }
        return value
    }

    static func unquotedValue(_ text: String, at position: Int) throws(FilterSyntaxError) -> FacetValue {
        if let number = try number(text, at: position) { return .number(number) }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return .string(text)
        }
    }
}

/// A parsed operand: its clauses and where it started, for error positions.
private struct Operand {
    var clauses: [[FilterAtom]]
    var position: Int
}
