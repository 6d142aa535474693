import QuarryJSON

/// A `FilterExpression` prepared for testing many records: facet texts are
/// lower-cased and numbers parsed once, not once per record.
///
/// The rules are those of `FilterExpression.matches(_:)`.
public struct FilterMatcher: Sendable {
    private let clauses: [[PreparedAtom]]

    public init(_ expression: FilterExpression) {
        clauses = expression.clauses.map { $0.map(PreparedAtom.init) }
    }

    public func matches(_ record: some FilterableRecord) -> Bool {
        clauses.allSatisfy { clause in clause.contains { $0.matches(record) } }
    }
}

private struct PreparedAtom: Sendable {
    enum Test: Sendable {
        /// Lower-cased text, and the number it spells if any.
        case facet(text: String, isASCII: Bool, number: Double?)
        case comparison(NumericOperator, Double)
        case range(Double, Double)
        case tag(String)
    }

    let attribute: String
    let test: Test
    let isNegated: Bool

    init(_ atom: FilterAtom) {
        attribute = atom.attribute
        isNegated = atom.isNegated
        switch atom.condition {
        case .facet(_, let value):
            let text = value.text.lowercased()
            test = .facet(text: text, isASCII: text.utf8.allSatisfy { $0 < 0x80 }, number: value.numericValue)
        case .comparison(_, let op, let bound): test = .comparison(op, bound)
        case .range(_, let lower, let upper): test = .range(lower, upper)
        case .tag(let tag): test = .tag(tag)
        }
    }

    func matches(_ record: some FilterableRecord) -> Bool {
        let values = record.values(at: attribute)
        let found: Bool = switch test {
        case .facet(let text, let isASCII, let number):
            Self.anyScalar(values) { Self.facetMatches(text, isASCII, number, $0) }
        case .comparison(let op, let bound):
            Self.anyScalar(values) { $0.doubleValue.map { op.compare($0, bound) } ?? false }
        case .range(let lower, let upper):
            Self.anyScalar(values) { $0.doubleValue.map { lower <= $0 && $0 <= upper } ?? false }
        case .tag(let tag):
            Self.anyScalar(values) { Self.text(of: $0) == tag }
        }
        return found != isNegated
    }

    /// Arrays are flattened here too, in case a record type returns them whole.
    private static func anyScalar(_ values: [JSON], _ predicate: (JSON) -> Bool) -> Bool {
        values.contains { value in
            if case .array(let elements) = value { anyScalar(elements, predicate) } else { predicate(value) }
        }
    }

    private static func facetMatches(_ text: String, _ isASCII: Bool, _ number: Double?, _ value: JSON) -> Bool {
        switch value {
        case .string(let string):
            if equalIgnoringCase(string, lowercased: text, isASCII: isASCII) { return true }
            return number != nil && FilterNumber.parse(string) == number
        case .int, .double:
            if let number { return value.doubleValue == number }
            return Self.text(of: value) == text
        case .bool(let bool):
            return text == (bool ? "true" : "false")
        case .null, .array, .object:
            return false
        }
    }

    /// `string.lowercased() == lowercased`, without allocating for ASCII text.
    private static func equalIgnoringCase(_ string: String, lowercased: String, isASCII: Bool) -> Bool {
        var contiguous = string
        let asciiResult: Bool? = contiguous.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            // An ASCII string lower-cases to ASCII, so it cannot equal non-ASCII text.
            guard isASCII, bytes.count == lowercased.utf8.count else { return false }
            return zip(bytes, lowercased.utf8).allSatisfy { byte, other in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == other
            }
        }
        return asciiResult ?? (string.lowercased() == lowercased)
    }

    /// The text a scalar record value is compared by; nil for null and containers.
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
