import QuarryEngine
import QuarryJSON
import QuarrySearchContract

/// Session searches ask the engine for match ranges in every encoding at
/// once (UTF-16 in `_matchRanges`, the others beside it); each connection is
/// sent the ones in the encoding it negotiated.
enum SessionRanges {
    /// One searcher's result with its hits' `_matchRanges` in `encoding`.
    static func result(_ result: JSON, for encoding: PositionEncoding) -> JSON {
        guard case .object(var object) = result, case .array(let hits)? = object["hits"] else { return result }
        object["hits"] = .array(hits.map { hit($0, for: encoding) })
        return .object(object)
    }

    private static func hit(_ hit: JSON, for encoding: PositionEncoding) -> JSON {
        guard case .object(var object) = hit else { return hit }
        for other in PositionEncoding.allCases {
            guard let ranges = object.removeValue(forKey: Engine.rangesKey(for: other)) else { continue }
            if other == encoding { object["_matchRanges"] = ranges }
        }
        return .object(object)
    }
}
