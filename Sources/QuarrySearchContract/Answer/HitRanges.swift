import QuarryJSON

/// One hit's match ranges, kept as the backend found them (UTF-8 byte offsets into each matched
/// value) and rendered in a connection's position encoding only when a reply or push is written:
/// one answer serves connections that negotiated different encodings.
public struct HitRanges: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var path: String
        var text: String
        var starts: [Int]
        var ends: [Int]
    }

    private var entries: [Entry] = []

    public init() {}

    /// `spans` are UTF-8 offsets into `text`, the value at the dotted `path`, ascending.
    package mutating func add(path: String, utf8 spans: [(Int, Int)], in text: String) {
        entries.append(Entry(path: path, text: text, starts: spans.map(\.0), ends: spans.map(\.1)))
    }

    /// `_matchRanges`: `{ "path": [[start, end], …] }` with offsets in `encoding`, counted from the
    /// start of each value.
    public func json(in encoding: PositionEncoding) -> JSONObject {
        var object = JSONObject()
        for entry in entries {
            let spans = MatchRanges.convert(Array(zip(entry.starts, entry.ends)), in: entry.text, to: encoding)
            object[entry.path] = .array(spans.map { .array([JSON($0.0), JSON($0.1)]) })
        }
        return object
    }
}
