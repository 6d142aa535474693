import QuarryJSON

/// Reads one setting's JSON value as the type the setting needs, or says what
/// was expected, naming the setting as the user wrote it.
struct SettingsValueReader {
    let name: String
    let value: JSON

    func fail(_ expected: String) -> BackendError { .invalidSetting(name: name, expected: expected) }

    func string() throws(BackendError) -> String {
        guard case .string(let s) = value else { throw fail("a string") }
        return s
    }

    func bool() throws(BackendError) -> Bool {
        guard case .bool(let b) = value else { throw fail("a boolean") }
        return b
    }

    func int(in range: ClosedRange<Int> = 0...Int.max) throws(BackendError) -> Int {
        guard let i = value.intValue, range.contains(i) else {
            throw fail(range.upperBound == Int.max
                ? "an integer ≥ \(range.lowerBound)" : "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return i
    }

    func strings() throws(BackendError) -> [String] {
        guard case .array(let elements) = value else { throw fail("an array of strings") }
        var result: [String] = []
        for element in elements {
            guard case .string(let s) = element else { throw fail("an array of strings") }
            result.append(s)
        }
        return result
    }

    /// `nil` for null or `["*"]` (both mean every attribute).
    func optionalStrings() throws(BackendError) -> [String]? {
        if value.isNull { return nil }
        let list = try strings()
        return list == ["*"] ? nil : list
    }

    /// Each string parsed by `element`, which returns nil when it is malformed.
    func list<T>(_ expected: String, _ element: (String) -> T?) throws(BackendError) -> [T] {
        var result: [T] = []
        for text in try strings() {
            guard let parsed = element(text) else { throw fail("\(expected); got \"\(text)\"") }
            result.append(parsed)
        }
        return result
    }
}
