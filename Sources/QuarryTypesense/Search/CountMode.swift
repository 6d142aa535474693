import QuarryJSON

/// How hard Typesense counts (protocol/methods/search.md, `counts`).
///
/// `exact` sends the parameters that make `nbHits` and every facet count exact (protocol/backends.md,
/// "Exact counts"), and fetches every value of a facet whose cut a tie spans. `fast` keeps Typesense's
/// own bounds on prefix and typo expansion and skips that second request: one round trip, answered
/// up to ten times sooner on one-letter prefixes, whose counts may be estimates (the response says so).
public enum CountMode: String, Sendable {
    case exact, fast

    /// The search parameter naming the mode; absent is `exact`.
    public static let parameter = "counts"

    /// The mode `parameters` ask for; an unknown value reads as `exact` (the server rejects it first).
    public init(_ parameters: JSONObject) {
        self = parameters[Self.parameter]?.stringValue.flatMap(CountMode.init(rawValue:)) ?? .exact
    }
}
