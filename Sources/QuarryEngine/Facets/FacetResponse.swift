import QuarryJSON

/// How counted facets appear in a response: `facets` {attribute: {value: count}}, best values first
/// and at most `maxValuesPerFacet` each, and `facets_stats` for attributes holding numbers.
enum FacetResponse {
    static func render(_ plan: FilterPlan, _ tallies: [FacetCounter.Tally]) -> JSONObject {
        var facets = JSONObject(), stats = JSONObject()
        let refinements = plan.refinements
        for (i, counted) in plan.counted.enumerated() {
            let tally = tallies[i]
            var values = sorted(tally.counts, alpha: refinements.sortFacetValuesByAlpha)
            values = Array(values.prefix(refinements.maxValuesPerFacet))
            // A selected value with no match is still listed, with 0, so the user can untick it.
            for value in plan.selected[counted.attribute] ?? [] {
                let folded = value.lowercased()
                if tally.counts.keys.contains(where: { $0.lowercased() == folded }) || values.contains(where: { $0.0 == value }) { continue }
                values.append((value, 0))
            }
            var object = JSONObject()
            for (value, count) in values { object[value] = JSON(count) }
            facets[counted.attribute] = .object(object)
            if tally.statsCount > 0 {
                stats[counted.attribute] = ["min": number(tally.min), "max": number(tally.max),
                                            "avg": number(tally.sum / Double(tally.statsCount)), "sum": number(tally.sum)]
            }
        }
        var result: JSONObject = ["facets": .object(facets)]
        if !stats.isEmpty { result["facets_stats"] = .object(stats) }
        result["exhaustiveFacetsCount"] = true
        return result
    }

    /// Count descending then text ascending, or text ascending.
    static func sorted(_ counts: [String: Int], alpha: Bool) -> [(String, Int)] {
        counts.map { ($0.key, $0.value) }.sorted { a, b in
            if !alpha && a.1 != b.1 { return a.1 > b.1 }
            return a.0 < b.0
        }
    }

    static func number(_ d: Double) -> JSON {
        d == d.rounded() && abs(d) < 1e15 ? .int(Int64(d)) : .double(d)
    }
}
