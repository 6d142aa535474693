/// One filter: a single condition on one attribute, possibly negated.
///
/// Atoms are what users toggle (a facet value, a price bound, a tag); a
/// `FilterExpression` combines them. Build them with the static helpers
/// (`.facet`, `.comparison`, `.range`, `.tag`) so that a facet on `_tags`
/// becomes a tag, as the parser would make it.
public struct FilterAtom: Sendable, Hashable {
    public enum Condition: Sendable, Hashable {
        /// `attr:value`, compared case-insensitively with the record's values.
        case facet(attribute: String, value: FacetValue)
        /// `attr < n` and the other operators; only numeric values can match.
        case comparison(attribute: String, operator: NumericOperator, value: Double)
        /// `attr:lower TO upper`, both bounds inclusive.
        case range(attribute: String, lower: Double, upper: Double)
        /// `_tags:value` or a bare `value`, compared case-sensitively.
        case tag(String)
    }

    public var condition: Condition
    public var isNegated: Bool

    public init(_ condition: Condition, negated: Bool = false) {
        self.condition = condition
        self.isNegated = negated
    }

    public static func facet(_ attribute: String, _ value: FacetValue, negated: Bool = false) -> FilterAtom {
        if attribute == tagsAttribute { return .tag(value.text, negated: negated) }
        return FilterAtom(.facet(attribute: attribute, value: value), negated: negated)
    }

    public static func comparison(
        _ attribute: String, _ op: NumericOperator, _ value: Double, negated: Bool = false
    ) -> FilterAtom {
        FilterAtom(.comparison(attribute: attribute, operator: op, value: value), negated: negated)
    }

    public static func range(_ attribute: String, _ lower: Double, _ upper: Double, negated: Bool = false) -> FilterAtom {
        FilterAtom(.range(attribute: attribute, lower: lower, upper: upper), negated: negated)
    }

    public static func tag(_ value: String, negated: Bool = false) -> FilterAtom {
        FilterAtom(.tag(value), negated: negated)
    }

    /// The attribute whose values are tested; `_tags` for a tag.
    public var attribute: String {
        switch condition {
        case .facet(let attribute, _), .comparison(let attribute, _, _), .range(let attribute, _, _): attribute
        case .tag: FilterAtom.tagsAttribute
        }
    }

    public var kind: FilterKind {
        switch condition {
        case .facet: .facet
        case .comparison, .range: .numeric
        case .tag: .tag
        }
    }

    /// The same filter with its negation flipped.
    public var negated: FilterAtom { FilterAtom(condition, negated: !isNegated) }

    /// The attribute Algolia reserves for tags.
    public static let tagsAttribute = "_tags"
}

/// The three filter types InstantSearch keeps apart: an OR joins one type only.
public enum FilterKind: String, Sendable, Hashable, CaseIterable {
    case facet, numeric, tag
}

public enum NumericOperator: String, Sendable, Hashable, CaseIterable {
    case less = "<"
    case lessOrEqual = "<="
    case equal = "="
    case notEqual = "!="
    case greaterOrEqual = ">="
    case greater = ">"

    public func compare(_ lhs: Double, _ rhs: Double) -> Bool {
        switch self {
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .greaterOrEqual: lhs >= rhs
        case .greater: lhs > rhs
        }
    }
}

/// A facet filter's value as written: `a:"x"` is a string, `a:10` a number,
/// `a:true` a boolean. Matching compares their text case-insensitively (and
/// numbers by value), so the kind matters for rendering, not for matching.
public enum FacetValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)

    /// The text a record value must equal (ignoring case) to match.
    public var text: String {
        switch self {
        case .string(let string): string
        case .number(let number): FilterNumber.render(number)
        case .bool(let bool): bool ? "true" : "false"
        }
    }
}

extension FacetValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
