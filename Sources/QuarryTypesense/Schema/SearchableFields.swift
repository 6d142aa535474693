import QuarrySearchContract
import QuarryText

/// Which `s_` fields a search queries, in priority order, with `query_by_weights`.
///
/// Typesense errors on a `query_by` field no document has brought yet, so the fields are
/// always taken from the collection (`GET /collections/<name>`) and ordered here.
public struct SearchableFields: Sendable, Equatable {
    /// `s_` field names, most important first.
    public var fields: [String]
    /// One weight per field, higher for more important; equal ranks (`"a,b"`) share a weight.
    public var weights: [Int]

    /// Typesense's largest `query_by_weights` value.
    public static let maxWeight = 15

    /// With `searchableAttributes`, their order and ranks, keeping only the fields present in
    /// `collectionFields`. Without, every `s_` field in collection order (the order records first
    /// brought them), with falling weights: the engine ranks each record's attributes by that
    /// record's key order, which one query cannot express.
    public init(settings: IndexSettings, collectionFields: [String]) {
        let layout = SearchableLayout(settings: settings)
        let present = Set(collectionFields)
        var fields: [String] = [], ranks: [Int] = []
        if layout.isDynamic {
            // `s_.*` itself is listed too: keep only names `FieldNames` makes.
            for field in collectionFields where field.hasPrefix("s_") && !fields.contains(field) {
                guard let path = FieldNames.attribute(ofField: field), FieldNames.searchable(path) == field else { continue }
                ranks.append(fields.count)
                fields.append(field)
            }
        } else {
            for (name, rank) in zip(layout.names, layout.ranks) {
                let field = FieldNames.searchable(name)
                guard present.contains(field), !fields.contains(field) else { continue }
                fields.append(field)
                ranks.append(rank)
            }
        }
        self.fields = fields
        weights = ranks.map { rank in max(1, Self.maxWeight - rank) }
    }

    public var queryBy: String { fields.joined(separator: ",") }
    public var queryByWeights: String { weights.map(String.init).joined(separator: ",") }
}
