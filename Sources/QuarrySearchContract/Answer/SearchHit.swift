import QuarryJSON

/// One hit of an answer: the record's retrieved attributes with `objectID`, `_highlightResult`,
/// `_snippetResult` and `_rankingInfo` as asked, and its match ranges, which take the shape of the
/// connection they are written to (`json(in:)`).
public struct SearchHit: Sendable, Equatable {
    public var record: JSONObject
    public var ranges: HitRanges

    public init(record: JSONObject, ranges: HitRanges) {
        self.record = record
        self.ranges = ranges
    }

    /// The hit as Algolia's JSON, `_matchRanges` in `encoding` (before `_rankingInfo`, as listed).
    public func json(in encoding: PositionEncoding) -> JSONObject {
        var object = JSONObject(minimumCapacity: record.count + 1)
        var placed = false
        for (key, value) in record {
            if key == "_rankingInfo" {
                object["_matchRanges"] = .object(ranges.json(in: encoding))
                placed = true
            }
            object[key] = value
        }
        if !placed { object["_matchRanges"] = .object(ranges.json(in: encoding)) }
        return object
    }
}
