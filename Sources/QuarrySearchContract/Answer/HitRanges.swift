import QuarryJSON
import QuarrySearchContract

/// One hit's `_matchRanges`, in the encoding the caller asked for and, when
/// asked, in the other encodings too: a session's results are computed once
/// and sent to connections that may have negotiated any encoding.
///
/// Public so a remote backend builds `_matchRanges` with the engine's conversions.
public struct HitRanges {
    /// The members holding the ranges in each other encoding; the server swaps
    /// the one a connection negotiated in, and drops the rest, before a hit goes on the wire.
    public static func key(for encoding: PositionEncoding) -> String {
        switch encoding {
        case .utf8: "_matchRangesUTF8"
        case .utf16: "_matchRangesUTF16"
        case .utf32: "_matchRangesUTF32"
        }
    }

    let encoding: PositionEncoding
    public var negotiated = JSONObject()
    /// By encoding, when the other encodings are kept.
    var others: [PositionEncoding: JSONObject]?

    public init(encoding: PositionEncoding, keepingOthers: Bool) {
        self.encoding = encoding
        others = keepingOthers ? [:] : nil
    }

    /// `utf8` are the engine's own offsets into `text`.
    package mutating func add(path: String, utf8 spans: [(Int, Int)], in text: String) {
        negotiated[path] = Self.json(MatchRanges.convert(spans, in: text, to: encoding))
        guard others != nil else { return }
        for other in PositionEncoding.allCases where other != encoding {
            others?[other, default: [:]][path] = Self.json(MatchRanges.convert(spans, in: text, to: other))
        }
    }

    /// The hit members for the other encodings.
    public var otherMembers: [(key: String, value: JSON)] {
        guard let others else { return [] }
        return PositionEncoding.allCases.compactMap { encoding in
            guard encoding != self.encoding else { return nil }
            return (Self.key(for: encoding), .object(others[encoding] ?? [:]))
        }
    }

    private static func json(_ spans: [(Int, Int)]) -> JSON {
        .array(spans.map { .array([JSON($0.0), JSON($0.1)]) })
    }
}
