import QuarryJSON

/// Typed access to a parameter object, throwing the parameter's name and expectation on a mismatch.
package struct ParameterReader {
    package let json: JSONObject

    package init(_ json: JSONObject) { self.json = json }

    package func string(_ name: String) throws(BackendError) -> String? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let s = value.stringValue else { throw .invalidParameter(name: name, expected: "a string") }
        return s
    }

    package func int(_ name: String, min: Int, max: Int = Int.max, expected: String) throws(BackendError) -> Int? {
        guard let value = json[name], !value.isNull else { return nil }
        let n: Int? = switch value {
        case .string(let s): Int(s)
        default: value.intValue
        }
        guard let n, n >= min, n <= max else { throw .invalidParameter(name: name, expected: expected) }
        return n
    }

    package func bool(_ name: String) throws(BackendError) -> Bool? {
        guard let value = json[name], !value.isNull else { return nil }
        switch value {
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        default: throw .invalidParameter(name: name, expected: "a boolean")
        }
    }

    /// An array of strings, or one comma-separated string.
    package func stringList(_ name: String) throws(BackendError) -> [String]? {
        guard let value = json[name], !value.isNull else { return nil }
        switch value {
        case .string(let s):
            return s.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        case .array(let items):
            var result: [String] = []
            for item in items {
                guard let s = item.stringValue else { throw .invalidParameter(name: name, expected: "an array of strings") }
                result.append(s)
            }
            return result
        default:
            throw .invalidParameter(name: name, expected: "an array of strings")
        }
    }
}
