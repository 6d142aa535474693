import QuarryJSON

/// Which backend answers, and how its answers differ from the embedded
/// engine's, reported by `initialize` so a frontend can tell without guessing.
public struct BackendDescription: Sendable, Equatable {
    /// `embedded`, `typesense` or `routed`.
    public var name: String
    /// Stable identifiers of the documented differences (`protocol/backends.md`).
    public var differences: [String]
    /// Backend-specific facts worth showing (a cluster's nodes, the indices it holds).
    public var details: JSONObject

    public init(name: String, differences: [String] = [], details: JSONObject? = nil) {
        self.name = name
        self.differences = differences
        self.details = details ?? [:]
    }

    public func json() -> JSONObject {
        var object: JSONObject = ["name": .string(name), "differences": .array(differences.map(JSON.string))]
        for (key, value) in details { object[key] = value }
        return object
    }
}
