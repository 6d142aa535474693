/// Writing filters back as a `filters` string, in the canonical form
/// (protocol/sessions.md, "Filter state"): names and string values
/// double-quoted, numbers shortest (`20`, `10.5`), `NOT ` prefix, OR clauses
/// as `( a OR b )`.
///
/// `FilterParser.parse(x.rendered()) == x` for every expression the parser or
/// the array forms can produce (and any built from finite numbers, non-empty
/// clauses and no `.facet` on `_tags`).
extension FilterExpression {
    public func rendered() -> String {
        clauses.map { clause in
            clause.count == 1 ? clause[0].rendered() : "( " + clause.map { $0.rendered() }.joined(separator: " OR ") + " )"
        }.joined(separator: " AND ")
    }

    /// How a session renders one group of its filter state (A1): filters
    /// sorted by their rendered text in code-point order, duplicates dropped,
    /// parenthesised even when alone; `nil` for an empty group, which is left out.
    public static func renderedGroup(_ atoms: some Sequence<FilterAtom>, joinedBy join: FilterJoin) -> String? {
        let texts = Set(atoms.map { $0.rendered() }).sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        guard !texts.isEmpty else { return nil }
        return "( " + texts.joined(separator: " \(join.rawValue) ") + " )"
    }
}

extension FilterExpression {
    /// One group of a session's filter state as the expression its rendering (`renderedGroup`)
    /// parses to: the same order, the same duplicates dropped; nil for an empty group.
    public static func group(_ atoms: some Sequence<FilterAtom>, joinedBy join: FilterJoin) -> FilterExpression? {
        var seen: [String: FilterAtom] = [:]
        for atom in atoms where seen[atom.rendered()] == nil { seen[atom.rendered()] = atom }
        guard !seen.isEmpty else { return nil }
        let ordered = seen.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }.compactMap { seen[$0] }
        return join == .or ? FilterExpression(clauses: [ordered]) : FilterExpression(clauses: ordered.map { [$0] })
    }
}

/// The operator inside a group of filters.
public enum FilterJoin: String, Sendable, Hashable {
    case and = "AND"
    case or = "OR"
}

extension FilterAtom {
    /// This filter alone, for example `NOT "price":10 TO 20`.
    public func rendered() -> String {
        let prefix = isNegated ? "NOT " : ""
        switch condition {
        case .facet(let attribute, let value):
            return prefix + Self.quote(attribute) + ":" + Self.render(value)
        case .comparison(let attribute, let op, let value):
            return prefix + Self.quote(attribute) + " " + op.rawValue + " " + FilterNumber.render(value)
        case .range(let attribute, let lower, let upper):
            return prefix + Self.quote(attribute) + ":" + FilterNumber.render(lower) + " TO " + FilterNumber.render(upper)
        case .tag(let value):
            return prefix + Self.quote(Self.tagsAttribute) + ":" + Self.quote(value)
        }
    }

    private static func render(_ value: FacetValue) -> String {
        switch value {
        case .string(let string): quote(string)
        case .number, .bool: value.text
        }
    }

    /// Double quotes, with `"` and `\` escaped by a backslash.
    /// Works on scalars, as the lexer does, so a combining mark after a quote
    /// cannot hide it.
    static func quote(_ text: String) -> String {
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}

extension FilterExpression: CustomStringConvertible {
    public var description: String { rendered() }
}

extension FilterAtom: CustomStringConvertible {
    public var description: String { rendered() }
}
