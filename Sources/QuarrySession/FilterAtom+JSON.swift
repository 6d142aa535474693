import QuarryFilters
import QuarryJSON

/// A filter as the `state` shows it: the same shapes frontends send
/// (`{attribute, value}`, `{attribute, operator, value}`, `{attribute, lower, upper}`,
/// `{tag}`), with `negated: true` only when negated.
extension FilterAtom {
    public var json: JSON {
        var object: JSONObject
        switch condition {
        case .facet(let attribute, let value):
            object = ["attribute": .string(attribute), "value": value.json]
        case .comparison(let attribute, let op, let value):
            object = ["attribute": .string(attribute), "operator": .string(op.rawValue), "value": Self.number(value)]
        case .range(let attribute, let lower, let upper):
            object = ["attribute": .string(attribute), "lower": Self.number(lower), "upper": Self.number(upper)]
        case .tag(let tag):
            object = ["tag": .string(tag)]
        }
        if isNegated { object["negated"] = true }
        return .object(object)
    }

    /// Integral numbers as integers, so `10` stays `10` on the wire.
    static func number(_ value: Double) -> JSON {
        if value == value.rounded(), abs(value) < 1e15 { return .int(Int64(value)) }
        return .double(value)
    }
}

extension FacetValue {
    public var json: JSON {
        switch self {
        case .string(let string): .string(string)
        case .number(let number): FilterAtom.number(number)
        case .bool(let bool): .bool(bool)
        }
    }
}
