/// The cluster's API key. Printing, interpolating or dumping it shows
/// `<redacted>`, so it cannot leak into a log line or an error text by accident.
struct APIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: []) }
}
