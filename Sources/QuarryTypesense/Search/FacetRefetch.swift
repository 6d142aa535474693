import QuarryJSON
import QuarrySearchContract

/// The second multi_search of a search whose top facet values (`FacetCut`) did not settle the
/// engine's answer: for each search concerned, one search with no hits counting every value of the
/// attributes left uncertain, under the same query and filters. Its counts replace the first ones.
struct FacetRefetch {
    /// Per request: its position in the first results and the fields counted again.
    let targets: [(result: Int, fields: [String])]
    /// The body's searches, one per target.
    let requests: [JSONObject]
    let index: String

    /// nil when every counted attribute's answer suffices. `results`: one per `translation.requests`.
    init?(_ translation: SearchTranslation, results: [JSONObject]) {
        self.init(translation, facets: FacetCountTable(results))
    }

    init?(_ translation: SearchTranslation, facets: FacetCountTable) {
        let requests = translation.requests, results = facets.results
        guard results.count == requests.count else { return nil }
        // Sent searches by their index in `translation.searches`.
        var position: [Int: Int] = [:]
        for (i, search) in translation.searches.enumerated() where search.parameters != nil { position[i] = position.count }
        let refinements = translation.parameters.refinements
        var uncertain: [Int: [String]] = [:]
        for counted in translation.plan.counted {
            guard let source = translation.facetSources[counted.attribute], let r = position[source.search] else { continue }
            let asked = requests[r]["max_facet_values"]?.intValue ?? FacetCut.all
            guard asked < FacetCut.all, uncertain[r]?.contains(source.field) != true else { continue }
            let entry = ResponseAssembly.facetEntry(results[r], field: source.field)
            let counts = facets.counts(r, field: source.field)
            let total = entry?["stats"]?["total_values"]?.intValue
            if !FacetCut.suffices(counts, asked: asked, totalValues: total, limit: refinements.maxValuesPerFacet,
                                  selected: translation.plan.selected[counted.attribute] ?? []) {
                uncertain[r, default: []].append(source.field)
            }
        }
        guard !uncertain.isEmpty else { return nil }
        index = translation.index
        targets = uncertain.keys.sorted().map { ($0, uncertain[$0] ?? []) }
        self.requests = targets.map { target in
            var p = requests[target.result]
            for key in ["page", "include_fields", "sort_by", "group_by", "group_limit"] { p[key] = nil }
            p["per_page"] = 0
            p["facet_by"] = .string(target.fields.joined(separator: ","))
            p["max_facet_values"] = JSON(FacetCut.all)
            return p
        }
    }

    /// `results` with the refetched fields' `facet_counts` entries replaced by those of `answers`.
    func merged(_ results: [JSONObject], with answers: [JSONObject]) throws(BackendError) -> [JSONObject] {
        guard answers.count == targets.count else {
            throw .storage("Typesense answered \(answers.count) searches of \(targets.count)")
        }
        var merged = results
        for (target, answer) in zip(targets, answers) {
            try ResponseAssembly.check(answer, index: index)
            guard case .array(var entries)? = merged[target.result]["facet_counts"] else { continue }
            for field in target.fields {
                guard let fresh = ResponseAssembly.facetEntry(answer, field: field),
                      let i = entries.firstIndex(where: { $0["field_name"]?.stringValue == field }) else { continue }
                entries[i] = .object(fresh)
            }
            merged[target.result]["facet_counts"] = .array(entries)
        }
        return merged
    }
}
