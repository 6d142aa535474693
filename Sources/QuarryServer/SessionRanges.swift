import QuarryEngine
import QuarryJSON

/// Session searches ask the engine for match ranges in UTF-16 and UTF-8 at
/// once; each connection is sent the ones in the encoding it negotiated.
enum SessionRanges {
    /// One searcher's result with its hits' `_matchRanges` in `encoding`.
    static func result(_ result: JSON, for encoding: PositionEncoding) -> JSON {
        guard case .object(var object) = result, case .array(let hits)? = object["hits"] else { return result }
        object["hits"] = .array(hits.map { hit($0, for: encoding) })
        return .object(object)
    }

    private static func hit(_ hit: JSON, for encoding: PositionEncoding) -> JSON {
        guard case .object(var object) = hit, let utf8 = object.removeValue(forKey: Engine.utf8RangesKey) else { return hit }
        if encoding == .utf8 { object["_matchRanges"] = utf8 }
        return .object(object)
    }
}
