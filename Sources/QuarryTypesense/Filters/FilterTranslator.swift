import QuarryFilters

/// `FilterExpression` → Typesense `filter_by`, with the engine's semantics (`SegmentFilter`,
/// `FilterExpression.matches`).
///
/// - Facet atoms test `FilterKeys` in `_q_filter`: same text ignoring case, or the same number
///   (`price:10` matches `"10.0"`); `NOT` keeps records lacking the attribute, as `:!=` does.
///   Values never reach the filter text, so no backtick problem (#196) arises.
/// - Tags test exact-text keys: case-sensitive, as in the engine.
/// - Comparisons and ranges test `n_<path>`; `!=` becomes `(n:<v || n:>v)` (0.24 has no numeric
///   `!=`). A negated one becomes the complementary comparison OR "no number at the path".
///   That is exact when a record holds at most one number at the path; with several numbers,
///   the engine keeps a record only when none passes, Typesense when one fails (documented).
/// - Bounds are sent as the 32-bit float Typesense compares, clamped to its finite range.
/// - Atoms on a numeric path no document holds are decided here (`numericFields`).
public struct FilterTranslator: Sendable {
    /// The `n_` fields of the collection (from `GET /collections/<name>`).
    public var numericFields: Set<String>

    public init(numericFields: Set<String>) {
        self.numericFields = numericFields
    }

    /// Takes every field name of the collection and keeps the numeric ones.
    public init(collectionFields: some Sequence<String>) {
        self.init(numericFields: Set(collectionFields.filter { $0.hasPrefix("n_") }))
    }

    public func translate(_ expression: FilterExpression) -> TypesenseFilter {
        var clauses: [String] = []
        for clause in expression.clauses {
            var disjuncts: [String] = []
            var always = false
            for atom in clause {
                switch translate(atom) {
                case .always: always = true
                case .never: continue
                case .any(let parts): disjuncts += parts
                }
                if always { break }
            }
            if always { continue }
            if disjuncts.isEmpty { return .none }
            clauses.append(disjuncts.count == 1 ? disjuncts[0] : "(" + disjuncts.joined(separator: " || ") + ")")
        }
        return clauses.isEmpty ? .all : .filterBy(clauses.joined(separator: " && "))
    }

    /// One atom: always true, never true, or an OR of Typesense conditions.
    enum Atom: Equatable {
        case always, never
        case any([String])
    }

    func translate(_ atom: FilterAtom) -> Atom {
        switch atom.condition {
        case .facet(let attribute, let value):
            var keys = [FilterKeys.facet(attribute, text: value.text)]
            let number: Double? = switch value {
            case .number(let d): d.isFinite ? d : nil
            case .string(let s): FacetText.number(s)
            case .bool: nil
            }
            if let number { keys.append(FilterKeys.facetNumber(attribute, number)) }
            return .any([Self.keys(keys, negated: atom.isNegated)])
        case .tag(let tag):
            return .any([Self.keys([FilterKeys.tag(tag)], negated: atom.isNegated)])
        case .comparison(let attribute, let op, let bound):
            return numeric(attribute, negated: atom.isNegated) { field in
                guard let b = Self.bound(bound) else { return [] }
                return switch op {
                case .less: ["\(field):<\(b)"]
                case .lessOrEqual: ["\(field):<=\(b)"]
                case .equal: ["\(field):=\(b)"]
                case .notEqual: ["\(field):<\(b)", "\(field):>\(b)"]
                case .greaterOrEqual: ["\(field):>=\(b)"]
                case .greater: ["\(field):>\(b)"]
                }
            } complement: { field in
                guard let b = Self.bound(bound) else { return [] }
                return switch op {
                case .less: ["\(field):>=\(b)"]
                case .lessOrEqual: ["\(field):>\(b)"]
                case .equal: ["\(field):<\(b)", "\(field):>\(b)"]
                case .notEqual: ["\(field):=\(b)"]
                case .greaterOrEqual: ["\(field):<\(b)"]
                case .greater: ["\(field):<=\(b)"]
                }
            }
        case .range(let attribute, let lower, let upper):
            return numeric(attribute, negated: atom.isNegated) { field in
                guard let lo = Self.bound(lower), let hi = Self.bound(upper), lower <= upper else { return [] }
                return ["\(field):[\(lo)..\(hi)]"]
            } complement: { field in
                guard let lo = Self.bound(lower), let hi = Self.bound(upper) else { return [] }
                return ["\(field):<\(lo)", "\(field):>\(hi)"]
            }
        }
    }

    /// A numeric atom: `positive` lists the conditions of the plain atom, `complement` those of
    /// its negation among records holding a number (an empty list: none qualify).
    private func numeric(
        _ attribute: String, negated: Bool, positive: (String) -> [String], complement: (String) -> [String]
    ) -> Atom {
        let field = FieldNames.numeric(attribute)
        guard numericFields.contains(field) else { return negated ? .always : .never }
        if !negated {
            let parts = positive(field)
            return parts.isEmpty ? .never : .any(parts)
        }
        return .any(complement(field) + [Self.keys([FilterKeys.hasNumber(attribute)], negated: true)])
    }

    private static func keys(_ keys: [String], negated: Bool) -> String {
        // Keys are hex digits after a letter: nothing to quote or escape.
        FilterKeys.field + (negated ? ":!=[" : ":=[") + keys.map { "`\($0)`" }.joined(separator: ",") + "]"
    }

    /// The bound as Typesense reads it: the nearest 32-bit float, in a notation its parser takes
    /// (`0.5`, `1e+20`, never `.5`); nil for NaN. Out-of-range bounds clamp to the largest float.
    static func bound(_ value: Double) -> String? {
        guard !value.isNaN else { return nil }
        let float = Float(DocumentBuilder.float(value))
        if float == float.rounded(), abs(float) < 1e7 { return String(Int64(float)) }
        return float.description
    }
}
