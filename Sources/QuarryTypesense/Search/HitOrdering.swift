import QuarryJSON
import QuarrySearchContract

/// In which order does Typesense return the hits: `sort_by` from the index's `ranking`.
///
/// The textual criteria (typo, words, proximity, attribute, exact) become one `_text_match:desc`
/// at the place of the first of them; `asc(x)`/`desc(x)` and the `customRanking` entries at
/// `custom` sort on the `o_` fields; `geo` sorts by distance to `aroundLatLng`; `filters` puts the
/// hits passing some `optionalFilters` clause first (`_eval`: one point for any clause, where the
/// engine counts the clauses that hold). Typesense 0.24
/// takes at most three sort fields: later ones are dropped (`dropped` names them), so ties past
/// the third key are in Typesense's order. Relevant sort on a virtual replica buckets the text
/// score (`_text_match(buckets:N)`, written without a space: with one it is silently ignored).
struct HitOrdering: Sendable {
    static let maxSortFields = 3
    /// What is sent as `sort_by`, nil when nothing is (Typesense's default is the text score).
    let sortBy: String?
    let dropped: [String]

    /// `optionalFilter`: the `filter_by` of any optional filter clause holding, nil when there is none.
    init(settings: IndexSettings, search: SearchParameters, hasWords: Bool, fields: Set<String>, strictness: Int?,
         optionalFilter: String? = nil) {
        var keys: [String] = []
        var textual = false
        func sortable(_ attribute: String, ascending: Bool) {
            let field = FieldNames.sortable(attribute.trimmingCharacters(in: " "))
            // A field no record fills sorts nothing (and Typesense would refuse it).
            guard fields.contains(field) else { return }
            keys.append(field + (ascending ? ":asc" : ":desc"))
        }
        for criterion in settings.ranking {
            switch criterion {
            case .typo, .words, .proximity, .attribute, .exact:
                guard !textual, hasWords else { continue }
                textual = true
                if let strictness {
                    // Strictness 0 orders by the custom keys alone; otherwise more strictness, finer buckets.
                    if strictness > 0 { keys.append("_text_match(buckets:\(max(1, strictness / 10))):desc") }
                } else {
                    keys.append("_text_match:desc")
                }
            case .geo:
                guard let center = search.refinements.geo?.center, fields.contains(FieldNames.geo) else { continue }
                let precision = search.refinements.geo.map { $0.precision / 1000 } ?? 0.01
                keys.append("\(FieldNames.geo)(\(center.lat), \(center.lng), precision: \(precision) km):asc")
            case .filters:
                if let optionalFilter { keys.append("_eval(\(optionalFilter)):desc") }
            case .custom:
                for custom in settings.customRanking { sortable(custom.attribute, ascending: custom.ascending) }
            case .asc(let attribute):
                sortable(attribute, ascending: true)
            case .desc(let attribute):
                sortable(attribute, ascending: false)
            }
        }
        sortBy = keys.isEmpty ? nil : keys.prefix(Self.maxSortFields).joined(separator: ",")
        dropped = Array(keys.dropFirst(Self.maxSortFields))
        sent = keys.prefix(Self.maxSortFields).map { key in
            if key.hasPrefix("_text_match") { return .textMatch }
            if key.hasPrefix(FieldNames.geo + "(") { return .geo }
            if key.hasPrefix("o_"), let colon = key.lastIndex(of: ":") {
                return .field(String(key[..<colon]), ascending: key[key.index(after: colon)...] == "asc")
            }
            return .other
        }
    }

    /// The sent keys as a hit shows them, to rank hits Typesense returned grouped (distinct > 1).
    enum Key: Sendable, Equatable {
        case textMatch, geo, other
        case field(String, ascending: Bool)
    }

    let sent: [Key]

    /// The `o_` fields the sent keys read: hits must include them to be ranked here.
    var sortFields: [String] {
        sent.compactMap { if case .field(let name, _) = $0 { name } else { nil } }
    }

    /// -1 when hit `a` ranks before `b`, 1 after, 0 tied on the sent keys (`_eval` and buckets are
    /// not seen here: those tie). A missing field ranks last either way, as in Typesense and the engine.
    func compare(_ a: JSON, _ b: JSON) -> Int {
        for key in sent {
            let c: Int
            switch key {
            case .textMatch:
                c = Self.compare(a["text_match"]?.doubleValue, b["text_match"]?.doubleValue, ascending: false)
            case .geo:
                c = Self.compare(a["geo_distance_meters"]?[FieldNames.geo]?.doubleValue,
                                 b["geo_distance_meters"]?[FieldNames.geo]?.doubleValue, ascending: true)
            case .field(let name, let ascending):
                c = Self.compare(a["document"]?[name]?.doubleValue, b["document"]?[name]?.doubleValue, ascending: ascending)
            case .other:
                c = 0
            }
            if c != 0 { return c }
        }
        return 0
    }

    private static func compare(_ a: Double?, _ b: Double?, ascending: Bool) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case let (a?, b?): return a == b ? 0 : ((a < b) == ascending ? -1 : 1)
        }
    }
}

private extension String {
    func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
