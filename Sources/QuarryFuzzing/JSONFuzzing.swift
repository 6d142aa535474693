import QuarryJSON

/// The JSON parser's oracle: whatever it accepts, written back by the writer,
/// parses to the same value, and writing that again gives the same bytes.
/// "The same" is JSON's sense: `1.5e3` may come back as the integer `1500`.
enum JSONFuzzing {
    static func run(_ data: [UInt8]) throws(OracleViolation) {
        guard let value = try? JSONParser.parse(data) else { return }
        let written = JSONWriter.encode(value)
        let reparsed: JSON
        do {
            reparsed = try JSONParser.parse(written)
        } catch {
            throw OracleViolation("the writer's output does not parse (\(error)): \(String(decoding: written, as: UTF8.self))")
        }
        try expect(reparsed.isSameJSON(as: value), "round trip changed the value: \(value) became \(reparsed)")
        try expect(JSONWriter.encode(reparsed) == written, "writing is not stable for \(value)")
    }
}

extension JSON {
    /// Equal as JSON values: numbers by value, whether held as integers or doubles.
    func isSameJSON(as other: JSON) -> Bool {
        switch (self, other) {
        case (.int(let integer), .double(let double)), (.double(let double), .int(let integer)):
            return Double(exactly: integer) == double
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isSameJSON(as: $1) }
        case (.object(let left), .object(let right)):
            return left.keys == right.keys && zip(left.values, right.values).allSatisfy { $0.isSameJSON(as: $1) }
        default:
            return self == other
        }
    }
}
