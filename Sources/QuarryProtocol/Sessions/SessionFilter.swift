import QuarryJSON

/// A filter as frontends send it: a facet `{attribute, value}`, a numeric
/// comparison `{attribute, operator, value}`, a range `{attribute, lower,
/// upper}` or a tag `{tag}`, each with optional `negated`.
public struct SessionFilter: Sendable, Hashable {
    public enum Condition: Sendable, Hashable {
        case facet(attribute: String, value: FacetValue)
        case comparison(attribute: String, operator: String, value: Double)
        case range(attribute: String, lower: Double, upper: Double)
        case tag(String)
    }

    public enum FacetValue: Sendable, Hashable {
        case string(String), number(Double), bool(Bool)
    }

    public static let operators = ["<", "<=", "=", "!=", ">=", ">"]

    public var condition: Condition
    public var negated: Bool

    public init(_ condition: Condition, negated: Bool = false) {
        self.condition = condition
        self.negated = negated
    }

    /// Reads the filter at `path` of `params` (`filter`, `filters[2]`).
    public init(_ value: JSON?, at path: String, in params: Params) throws(ResponseError) {
        self = try params.nested(value, at: path) { (p) throws(ResponseError) -> SessionFilter in
            let negated = try p.optionalBool("negated") ?? false
            if p.object["tag"] != nil { return SessionFilter(.tag(try p.string("tag")), negated: negated) }
            let attribute = try p.string("attribute")
            if p.object["lower"] != nil || p.object["upper"] != nil {
                return SessionFilter(.range(attribute: attribute, lower: try p.number("lower"), upper: try p.number("upper")), negated: negated)
            }
            if let op = p.object["operator"] {
                guard let text = op.stringValue, Self.operators.contains(text) else {
                    throw p.fail("operator", expected: "one of \(Self.operators.map { "\"\($0)\"" }.joined(separator: ", "))", got: op)
                }
                return SessionFilter(.comparison(attribute: attribute, operator: text, value: try p.number("value")), negated: negated)
            }
            switch p.object["value"] {
            case .string(let text)?: return SessionFilter(.facet(attribute: attribute, value: .string(text)), negated: negated)
            case .bool(let flag)?: return SessionFilter(.facet(attribute: attribute, value: .bool(flag)), negated: negated)
            case let number? where number.doubleValue?.isFinite == true:
                return SessionFilter(.facet(attribute: attribute, value: .number(number.doubleValue ?? 0)), negated: negated)
            case let other:
                throw p.fail("value", expected: "a string, number or boolean (or give 'operator', 'lower'/'upper' or 'tag')", got: other)
            }
        }
    }

    /// A list of filters at `name`.
    public static func list(_ name: String, in params: Params) throws(ResponseError) -> [SessionFilter] {
        guard let elements = try params.optionalArray(name) else { throw params.fail(name, expected: "an array of filters", got: nil) }
        var filters: [SessionFilter] = []
        for (position, element) in elements.enumerated() {
            filters.append(try SessionFilter(element, at: "\(name)[\(position)]", in: params))
        }
        return filters
    }
}

/// Which group a change is about: `{name, operator: "and"|"or"}`. Clearing
/// also accepts `"hierarchical"`, an or-group `type`, and a bare name (every
/// group of that name).
public struct SessionGroupReference: Sendable, Hashable {
    public enum Operator: String, Sendable { case and, or, hierarchical }

    public var name: String
    public var op: Operator?
    public var type: String?

    public init(name: String, op: Operator?, type: String? = nil) {
        self.name = name
        self.op = op
        self.type = type
    }

    /// `{name, operator}` with operator and/or required.
    public init(_ value: JSON?, at path: String, in params: Params) throws(ResponseError) {
        self = try params.nested(value, at: path) { (p) throws(ResponseError) -> SessionGroupReference in
            let op = try p.oneOf("operator", ["and": Operator.and, "or": Operator.or])
            guard let op else { throw p.fail("operator", expected: "\"and\" or \"or\"", got: nil) }
            return SessionGroupReference(name: try p.string("name"), op: op)
        }
    }

    /// A selector for clearing: a name, or `{name, operator?, type?}`.
    public init(selector value: JSON, at path: String, in params: Params) throws(ResponseError) {
        if case .string(let name) = value {
            self.init(name: name, op: nil)
            return
        }
        self = try params.nested(value, at: path) { (p) throws(ResponseError) -> SessionGroupReference in
            SessionGroupReference(
                name: try p.string("name"),
                op: try p.oneOf("operator", ["and": Operator.and, "or": Operator.or, "hierarchical": Operator.hierarchical]),
                type: try p.oneOf("type", ["facet": "facet", "numeric": "numeric", "tag": "tag"]))
        }
    }
}
