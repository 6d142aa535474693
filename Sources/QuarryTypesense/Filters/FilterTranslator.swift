import QuarryFilters

/// `FilterExpression` → Typesense `filter_by`, with the engine's semantics (`SegmentFilter`,
/// `FilterExpression.matches`).
///
/// - Facet atoms test `FilterKeys` in `_q_filter`: same text ignoring case, or the same number
///   (`price:10` matches `"10.0"`); `NOT` keeps records lacking the attribute, as `:!=` does.
///   Values never reach the filter text, so no backtick problem (#196) arises.
/// - Tags test exact-text keys: case-sensitive, as in the engine.
/// - `=` tests exact-number keys. Other comparisons and ranges test `n_<path>` (any number
///   passes); `!=` becomes `(n:<v || n:>v)` (0.24 has no numeric `!=`). A negated one keeps
///   records with no number at the path, records with one number that passes the complementary
///   comparison, and records with several whose `NumericBounds` show that none passes; only
///   `NOT x:a TO b` cannot tell "some below and some above, none inside" (documented).
/// - Bounds are sent as the 32-bit float Typesense compares, clamped to its finite range.
/// - Atoms on a numeric path no document holds are decided here (`numericFields`).
public struct FilterTranslator: Sendable {
    /// The field names of the collection (from `GET /collections/<name>`): numeric atoms need
    /// their `n_` field, negated ones also `NumericBounds` where documents hold several numbers.
    public var fields: Set<String>

    public init(collectionFields: some Sequence<String>) {
        fields = Set(collectionFields)
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
            guard let b = Self.bound(bound) else { return atom.isNegated ? .always : .never }
            if op == .equal {
                // Equality keys hold the exact double: no 32-bit rounding, and NOT keeps records lacking one.
                return numeric(attribute, negated: atom.isNegated) { _ in
                    .any([Self.keys([FilterKeys.number(attribute, bound)], negated: atom.isNegated)])
                }
            }
            return numeric(attribute, negated: atom.isNegated) { fields in
                let (n, lo, hi) = (fields.all, fields.lowest, fields.highest)
                if !atom.isNegated {
                    return switch op {
                    case .less: .any(["\(n):<\(b)"])
                    case .lessOrEqual: .any(["\(n):<=\(b)"])
                    case .notEqual, .equal: .any(["\(n):<\(b)", "\(n):>\(b)"])
                    case .greaterOrEqual: .any(["\(n):>=\(b)"])
                    case .greater: .any(["\(n):>\(b)"])
                    }
                }
                // One number: the complementary comparison; several: every number fails, read off the bounds.
                return switch op {
                case .less: fields.negation(single: ["\(n):>=\(b)"], several: ["\(lo):>=\(b)"])
                case .lessOrEqual: fields.negation(single: ["\(n):>\(b)"], several: ["\(lo):>\(b)"])
                case .notEqual, .equal: fields.negation(single: ["\(n):=\(b)"], several: ["(\(lo):=\(b) && \(hi):=\(b))"])
                case .greaterOrEqual: fields.negation(single: ["\(n):<\(b)"], several: ["\(hi):<\(b)"])
                case .greater: fields.negation(single: ["\(n):<=\(b)"], several: ["\(hi):<=\(b)"])
                }
            }
        case .range(let attribute, let lower, let upper):
            guard let lo = Self.bound(lower), let hi = Self.bound(upper), lower <= upper else {
                return atom.isNegated ? .always : .never
            }
            return numeric(attribute, negated: atom.isNegated) { fields in
                let n = fields.all
                if !atom.isNegated { return .any(["\(n):[\(lo)..\(hi)]"]) }
                // Several numbers: all above or all below. Some below and some above, none inside,
                // is kept by the engine and not here (a documented difference).
                return fields.negation(
                    single: ["\(n):<\(lo)", "\(n):>\(hi)"], several: ["\(fields.lowest):>\(hi)", "\(fields.highest):<\(lo)"])
            }
        }
    }

    /// The fields of one numeric path, and how a negated atom's parts combine.
    struct NumericFields {
        let attribute: String
        let all: String
        let lowest: String
        let highest: String
        /// Some document holds several numbers at the path (the bounds fields exist).
        let hasSeveral: Bool

        /// Records with one number pass `single`, with several `several`, with none always.
        func negation(single: [String], several: [String]) -> Atom {
            let missing = FilterTranslator.keys([FilterKeys.hasNumber(attribute)], negated: true)
            guard hasSeveral else { return .any(single + [missing]) }
            let notSeveral = FilterTranslator.keys([FilterKeys.severalNumbers(attribute)], negated: true)
            let one = single.count == 1 ? single[0] : "(" + single.joined(separator: " || ") + ")"
            return .any(["(\(one) && \(notSeveral))"] + several + [missing])
        }
    }

    /// A numeric atom on `attribute`: decided here when no document holds a number there.
    private func numeric(_ attribute: String, negated: Bool, _ body: (NumericFields) -> Atom) -> Atom {
        let all = FieldNames.numeric(attribute)
        guard fields.contains(all) else { return negated ? .always : .never }
        let lowest = NumericBounds.lowest(attribute), highest = NumericBounds.highest(attribute)
        return body(NumericFields(
            attribute: attribute, all: all, lowest: lowest, highest: highest,
            hasSeveral: fields.contains(lowest) && fields.contains(highest)))
    }

    static func keys(_ keys: [String], negated: Bool) -> String {
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
