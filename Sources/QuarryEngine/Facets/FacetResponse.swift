import QuarryJSON
import QuarrySearchContract

/// How counted facets appear in a response: the values of each attribute, best first and at most
/// `maxValuesPerFacet`, and stats for attributes holding numbers.
enum FacetResponse {
    static func fill(_ response: inout SearchResponse, _ plan: FilterPlan, _ tallies: [FacetCounter.Tally]) {
        var facets: [FacetCounts] = [], stats: [FacetStats] = []
        let refinements = plan.refinements
        for (i, counted) in plan.counted.enumerated() {
            let tally = tallies[i]
            var values = top(tally, refinements.maxValuesPerFacet, alpha: refinements.sortFacetValuesByAlpha)
            // A selected value with no match is still listed, with 0, so the user can untick it.
            for value in plan.selected[counted.attribute] ?? [] where !matches(value, tally) && !values.contains(where: { $0.0 == value }) {
                values.append((value, 0))
            }
            facets.append(FacetCounts(attribute: counted.attribute, values: values))
            if tally.statsCount > 0 {
                stats.append(FacetStats(attribute: counted.attribute, min: tally.min, max: tally.max,
                                        avg: tally.sum / Double(tally.statsCount), sum: tally.sum))
            }
        }
        response.facets = facets
        response.facetsStats = stats
        response.exhaustiveFacetsCount = true
    }

    /// The best `k` values: count descending then text ascending, or text ascending. One segment
    /// selects on integers (count, alphabetical rank) with a bounded heap; several merge by text.
    static func top(_ tally: FacetCounter.Tally, _ k: Int, alpha: Bool) -> [(String, Int)] {
        guard k > 0 else { return [] }
        let nonEmpty = tally.parts.filter { $0.counts.contains { $0 > 0 } }
        if nonEmpty.count > 1 { return merged(nonEmpty, k, alpha: alpha) }
        guard let part = nonEmpty.first else { return [] }
        return best(part.counts, of: part.column, k, alpha: alpha).map { (part.column.values[$0], Int(part.counts[$0])) }
    }

    /// The ids of `column`'s best `k` values by `counts`, best first, chosen on integers with a bounded heap.
    private static func best<Count: BinaryInteger>(_ counts: [Count], of column: FacetColumn, _ k: Int, alpha: Bool) -> [Int] {
        // Smaller key is better: (inverted count unless alpha) then alphabetical rank.
        var heap = TopK<Int>(capacity: k)
        let ranks = column.alphaRanks
        for (id, n) in counts.enumerated() where n > 0 {
            let key = RankingKey(high: alpha ? 0 : UInt64(Int.max - Int(n)), middle: UInt64(ranks[id]), low: 0)
            if heap.isFull && !(key < heap.threshold) { continue }
            heap.insert(key, id)
        }
        return heap.sorted().map(\.payload)
    }

    /// `top` over several segments (while writes stream, before their segments merge). The part whose
    /// column holds the most values is the base: the others' counts are added to its values through each
    /// part's ids translated into the base's once (`FacetTranslations`), so no counted text is hashed or
    /// looked up per search; hashing each into a dictionary was most of a keystroke's time while writes
    /// streamed (Benchmarks/RESULTS.md, "Facet values merged across segments"). The base's best `k` are
    /// then chosen on integers as with one segment, and only they and the values the base lacks are
    /// compared by text.
    private static func merged(_ parts: [(column: FacetColumn, counts: [UInt32])], _ k: Int, alpha: Bool) -> [(String, Int)] {
        guard let b = parts.indices.max(by: { parts[$0].column.values.count < parts[$1].column.values.count }) else {
            return []
        }
        let base = parts[b].column
        // 32 bits as the parts' own counts: no total exceeds the documents. Half the bytes of `Int` totals, a
        // copy rather than a conversion, and the same selection as one segment's.
        var totals = parts[b].counts
        var missing: [String: Int] = [:]
        for (p, part) in parts.enumerated() where p != b {
            let values = part.column.values, counts = part.counts
            let into = part.column.translations.ids(of: part.column, in: base)
            for id in counts.indices where counts[id] > 0 {
                let at = Int(into[id])
                if at >= 0 {
                    totals[at] &+= counts[id]
                } else {
                    missing[values[id], default: 0] += Int(counts[id])
                }
            }
        }
        let candidates = best(totals, of: base, k, alpha: alpha).map { (base.values[$0], Int(totals[$0])) }
            + missing.map { ($0.key, $0.value) }
        return candidates.sorted { a, b in
            if !alpha && a.1 != b.1 { return a.1 > b.1 }
            return a.0 < b.0
        }.prefix(k).map { $0 }
    }

    /// Whether some value equal to `value` ignoring case has a count.
    private static func matches(_ value: String, _ tally: FacetCounter.Tally) -> Bool {
        tally.parts.contains { part in
            part.column.ids(ignoringCase: value).contains { part.counts[Int($0)] > 0 }
        }
    }
}
