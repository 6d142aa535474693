import QuarryJSON

/// One hit's `_matchRanges`, in the encoding the caller asked for and, when
/// asked, in UTF-8 too: a session's results are computed once and sent to
/// connections that may have negotiated either encoding. UTF-8 offsets are
/// the engine's own, so keeping them costs no conversion.
struct HitRanges {
    /// The member holding the UTF-8 ranges; the server swaps it in or drops it
    /// before a hit goes on the wire.
    static let utf8Key = "_matchRangesUTF8"

    var negotiated = JSONObject()
    var utf8: JSONObject?

    init(keepingUTF8: Bool) {
        utf8 = keepingUTF8 ? JSONObject() : nil
    }

    mutating func add(path: String, spans: [(Int, Int)], utf8 spans8: [(Int, Int)]) {
        negotiated[path] = Self.json(spans)
        if utf8 != nil { utf8?[path] = Self.json(spans8) }
    }

    private static func json(_ spans: [(Int, Int)]) -> JSON {
        .array(spans.map { .array([JSON($0.0), JSON($0.1)]) })
    }
}
