import QuarryJSON

/// Reads a method's params object, turning every mismatch into an
/// `invalidParams` error that names the parameter and what was expected.
public struct Params: Sendable {
    public let object: JSONObject
    public let method: String

    public init(_ params: JSON?, method: String) throws(ResponseError) {
        self.method = method
        switch params {
        case nil, .null?: object = [:]
        case .object(let object)?: self.object = object
        case let other?:
            throw .invalidParams("invalid params for '\(method)': params must be an object, got \(other.kindName)")
        }
    }

    public func fail(_ name: String, expected: String, got value: JSON?) -> ResponseError {
        let got = value.map { "got \($0.kindName)" } ?? "it is missing"
        return .invalidParams("invalid params for '\(method)': '\(name)' must be \(expected), \(got)", parameter: name)
    }

    public func string(_ name: String) throws(ResponseError) -> String {
        guard let value = try optionalString(name) else { throw fail(name, expected: "a string", got: nil) }
        return value
    }

    public func optionalString(_ name: String) throws(ResponseError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let value)?:
            guard !value.isEmpty else { throw .invalidParams("invalid params for '\(method)': '\(name)' must be a non-empty string", parameter: name) }
            return value
        case let other?: throw fail(name, expected: "a string", got: other)
        }
    }

    /// A search's `query`, when given, is a string; unlike `optionalString`, an empty one is a query too.
    public func checkQuery() throws(ResponseError) {
        if let query = object["query"], query.stringValue == nil, !query.isNull {
            throw fail("query", expected: "a string", got: query)
        }
    }

    public func optionalBool(_ name: String) throws(ResponseError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw fail(name, expected: "a boolean", got: other)
        }
    }

    public func optionalInt(_ name: String, in range: ClosedRange<Int> = 0...Int.max) throws(ResponseError) -> Int? {
        switch object[name] {
        case nil, .null?: return nil
        case let value?:
            guard let int = value.intValue, range.contains(int) else {
                let expected = range.upperBound == Int.max
                    ? "an integer ≥ \(range.lowerBound)" : "an integer from \(range.lowerBound) to \(range.upperBound)"
                throw fail(name, expected: expected, got: value)
            }
            return int
        }
    }

    public func objects(_ name: String) throws(ResponseError) -> [JSONObject] {
        guard case .array(let elements)? = object[name] else {
            throw fail(name, expected: "an array of objects", got: object[name])
        }
        var objects: [JSONObject] = []
        objects.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let value) = element else {
                throw fail("\(name)[\(index)]", expected: "an object", got: element)
            }
            objects.append(value)
        }
        return objects
    }

    public func strings(_ name: String) throws(ResponseError) -> [String] {
        guard case .array(let elements)? = object[name] else {
            throw fail(name, expected: "an array of strings", got: object[name])
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let value) = element else {
                throw fail("\(name)[\(index)]", expected: "a string", got: element)
            }
            strings.append(value)
        }
        return strings
    }

    public func optionalObject(_ name: String) throws(ResponseError) -> JSONObject? {
        switch object[name] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw fail(name, expected: "an object", got: other)
        }
    }

    /// An index name: 1 to 200 characters, no control characters or '/'.
    public func indexName(_ name: String = "index") throws(ResponseError) -> String {
        let value = try string(name)
        guard value.count <= 200, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "/" || $0.value == 0x7F }) else {
            throw .invalidParams("invalid params for '\(method)': '\(name)' must be an index name (1 to 200 characters, no '/' or control characters), got \"\(value)\"", parameter: name)
        }
        return value
    }

    /// Every member except the named ones: the pass-through part of a request (search parameters, say).
    public func remaining(excluding names: Set<String>) -> JSONObject {
        object.filter { !names.contains($0.key) }
    }

    /// A string parameter restricted to a few names.
    public func oneOf<T>(_ name: String, _ choices: [String: T]) throws(ResponseError) -> T? {
        guard let value = try optionalString(name) else { return nil }
        guard let choice = choices[value] else {
            let names = choices.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw .invalidParams("invalid params for '\(method)': '\(name)' must be one of \(names), got \"\(value)\"", parameter: name)
        }
        return choice
    }
}
