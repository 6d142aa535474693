import QuarryJSON
import QuarrySearchContract

/// What a hit carries beyond its record: `_highlightResult`, `_snippetResult` and its match ranges.
/// Written by `HitHighlighter`;
/// the search only asks for Typesense's highlights and hands them over.
public protocol HitHighlighting: Sendable {
    /// Parameters added to every hits search (`highlight_fields`, tags, `highlight_full_fields`…);
    /// `queryBy` is the searched fields in priority order.
    func typesenseParameters(for parameters: SearchParameters, queryBy: [String]) -> JSONObject
    /// Members appended to the hit after `objectID`, and the hit's match ranges, from the stored
    /// record and the whole Typesense hit (`highlight`, `highlights`, `text_match_info`…).
    func members(record: JSONObject, typesenseHit: JSONObject, parameters: SearchParameters) -> (members: JSONObject, ranges: HitRanges)
}
