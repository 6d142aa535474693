import QuarryJSON
import QuarrySearchContract
import QuarrySession

// The fake backend's answers are written as the JSON a backend's response renders to; these read
// them back into the typed answers sessions receive.
extension SearchResponse {
    init(canned json: JSONObject) {
        let hits = (json["hits"]?.arrayValue ?? []).compactMap(\.objectValue).map { SearchHit(record: $0, ranges: HitRanges()) }
        self.init(hits: hits, nbHits: json["nbHits"]?.intValue ?? hits.count, page: json["page"]?.intValue ?? 0,
                  nbPages: json["nbPages"]?.intValue ?? 1, hitsPerPage: json["hitsPerPage"]?.intValue ?? 20, processingTimeMS: 0,
                  query: json["query"]?.stringValue ?? "",
                  exhaustiveNbHits: json["exhaustive"]?["nbHits"]?.boolValue ?? json["exhaustiveNbHits"]?.boolValue ?? true)
        if let facets = json["facets"]?.objectValue {
            self.facets = facets.map { attribute, counts in
                FacetCounts(attribute: attribute, values: (counts.objectValue ?? [:]).map { ($0.key, $0.value.intValue ?? 0) })
            }
        }
        if let facetsCount = json["exhaustive"]?["facetsCount"]?.boolValue { exhaustiveFacetsCount = facetsCount }
        for (attribute, stats) in json["facets_stats"]?.objectValue ?? [:] {
            facetsStats.append(FacetStats(attribute: attribute, min: stats["min"]?.doubleValue ?? 0, max: stats["max"]?.doubleValue ?? 0,
                                          avg: stats["avg"]?.doubleValue ?? 0, sum: stats["sum"]?.doubleValue ?? 0))
        }
        appliedRelevancyStrictness = json["appliedRelevancyStrictness"]?.intValue
        nbSortedHits = json["nbSortedHits"]?.intValue
    }
}

extension FacetValuesResponse {
    init(canned json: JSONObject) {
        let hits = (json["facetHits"]?.arrayValue ?? []).map { hit in
            Hit(value: hit["value"]?.stringValue ?? "", highlighted: hit["highlighted"]?.stringValue ?? "", count: hit["count"]?.intValue ?? 0)
        }
        self.init(facetHits: hits, processingTimeMS: 0)
    }
}

extension IndexSettings {
    /// The settings a replica or primary shows: `primary`, `replicas`, `relevancyStrictness`.
    init(canned json: JSONObject) {
        self.init()
        primary = json["primary"]?.stringValue
        replicas = (json["replicas"]?.arrayValue ?? []).compactMap(\.stringValue).map { name in
            name.hasPrefix("virtual(") && name.hasSuffix(")")
                ? ReplicaReference(name: String(name.dropFirst(8).dropLast()), isVirtual: true) : ReplicaReference(name: name, isVirtual: false)
        }
        if let strictness = json["relevancyStrictness"]?.intValue { relevancyStrictness = strictness }
    }
}

extension SearcherResult {
    /// A member as a UTF-16 connection is sent it.
    subscript(key: String) -> JSON? { json(in: .utf16)[key] }
}
