import QuarryJSON

/// Deciding whether one record passes a filter: the engine's hook.
///
/// - A facet filter matches when any value at the attribute has the same text
///   ignoring case (numbers as their shortest text, booleans as `true` and
///   `false`), or when both sides are numbers of equal value: `price:10`
///   matches `10`, `10.0` and `"10"`; `inStock:true` matches `true` and `"true"`.
/// - A tag matches a value in `_tags` with exactly the same text.
/// - Numeric comparisons and ranges only match numeric values (not numeric
///   strings); `price != 10` needs a price that is a number other than 10,
///   while `NOT price = 10` also keeps records without a price.
/// - NOT negates the whole atom: `NOT color:red` keeps records with no red
///   among their colours, including records with no colour.
extension FilterExpression {
    public func matches(_ record: some FilterableRecord) -> Bool {
        clauses.allSatisfy { clause in clause.contains { $0.matches(record) } }
    }
}

extension FilterAtom {
    public func matches(_ record: some FilterableRecord) -> Bool {
        matchesIgnoringNegation(record) != isNegated
    }

    private func matchesIgnoringNegation(_ record: some FilterableRecord) -> Bool {
        let values = record.values(at: attribute)
        switch condition {
        case .facet(_, let value):
            let text = value.text.lowercased()
            let number = value.numericValue
            return Self.anyScalar(values) { Self.facetMatches(text, number, $0) }
        case .comparison(_, let op, let bound):
            return Self.anyScalar(values) { $0.doubleValue.map { op.compare($0, bound) } ?? false }
        case .range(_, let lower, let upper):
            return Self.anyScalar(values) { $0.doubleValue.map { lower <= $0 && $0 <= upper } ?? false }
        case .tag(let tag):
            return Self.anyScalar(values) { Self.text(of: $0) == tag }
        }
    }

    /// Arrays are flattened here too, in case a record type returns them whole.
    private static func anyScalar(_ values: [JSON], _ predicate: (JSON) -> Bool) -> Bool {
        values.contains { value in
            if case .array(let elements) = value { anyScalar(elements, predicate) } else { predicate(value) }
        }
    }

    private static func facetMatches(_ text: String, _ number: Double?, _ value: JSON) -> Bool {
        guard let valueText = Self.text(of: value) else { return false }
        if valueText.lowercased() == text { return true }
        guard let number else { return false }
        switch value {
        case .int, .double: return value.doubleValue == number
        case .string(let string): return FilterNumber.parse(string) == number
        default: return false
        }
    }

    /// The text a scalar record value is compared by; nil for null and objects.
    private static func text(of value: JSON) -> String? {
        switch value {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): FilterNumber.render(double)
        case .bool(let bool): bool ? "true" : "false"
        case .null, .array, .object: nil
        }
    }
}

extension FacetValue {
    /// The number this value stands for: a number, or a string spelling one.
    var numericValue: Double? {
        switch self {
        case .number(let number): number
        case .string(let string): FilterNumber.parse(string)
        case .bool: nil
        }
    }
}
