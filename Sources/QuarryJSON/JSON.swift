import OrderedCollections

/// A JSON value as Quarry moves it around: records, request params and replies.
///
/// Integers stay integers (ids and counts are echoed exactly) and objects keep
/// their key order (records come back the way they were written).
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

public typealias JSONObject = OrderedDictionary<String, JSON>

extension JSON {
    /// The name of this value's kind, as error messages say it.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var isNull: Bool { if case .null = self { true } else { false } }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    public var arrayValue: [JSON]? { if case .array(let a) = self { a } else { nil } }

    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// Any number, as a `Double`.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// A number with no fractional part that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let i): Int(exactly: i)
        case .double(let d): Int(exactly: d)
        default: nil
        }
    }

    /// Member lookup; `nil` when this is not an object or has no such key.
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { o[key] } else { nil }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSON {
    public init(_ value: Int) { self = .int(Int64(value)) }
}
