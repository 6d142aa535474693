/// How many matching documents hold each facet value, exactly, for every counted attribute at once?
///
/// The universe (text candidates under the base filter, or every live document for the empty
/// query) is listed once per segment with each document's condition bits. Each attribute then
/// walks that list with integer arrays: a document counts for it when it passes the conditions the
/// attribute requires. Per-segment counts by value id are merged by text at the end.
struct FacetCounter {
    struct Tally {
        /// Per segment holding the attribute: its column and counts by value id.
        var parts: [(column: FacetColumn, counts: [UInt32])] = []
        var statsCount = 0
        var min = Double.infinity, max = -Double.infinity, sum = 0.0
    }

    static func count(index: SearchIndex, plan: FilterPlan, universe candidates: [Candidates]?) -> [Tally] {
        var tallies = [Tally](repeating: Tally(), count: plan.counted.count)
        guard !plan.counted.isEmpty else { return tallies }
        for (s, segment) in index.segments.enumerated() {
            var documents: [UInt32] = []
            var passes: [UInt64] = []
            let conditions = plan.hasConditions ? plan.conditions[s] : []
            let collect = { (d: Int) in
                documents.append(UInt32(d))
                if !conditions.isEmpty {
                    var pass: UInt64 = 0
                    for (c, bits) in conditions.enumerated() where bits[d >> 6] & (1 << UInt64(d & 63)) != 0 { pass |= 1 << UInt64(c) }
                    passes.append(pass)
                }
            }
            if let candidates {
                documents.reserveCapacity(candidates[s].count)
                candidates[s].forEach(dead: plan.universeDead[s]) { collect($0); return true }
            } else {
                let dead = plan.universeDead[s].words, live = plan.live.isEmpty ? nil : plan.live[s]
                documents.reserveCapacity(segment.count - plan.universeDead[s].count)
                for w in 0..<((segment.count + 63) >> 6) {
                    var word = (live?[w] ?? Self.fullWord(w, segment.count)) & ~(w < dead.count ? dead[w] : 0)
                    while word != 0 {
                        collect(w << 6 | word.trailingZeroBitCount)
                        word &= word - 1
                    }
                }
            }
            for (i, counted) in plan.counted.enumerated() {
                guard let column = segment.facets.column(counted.attribute) else { continue }
                let perValue = tally(column, documents, passes, required: counted.required)
                tallies[i].parts.append((column, perValue))
                guard column.hasNumbers else { continue }
                for (id, n) in perValue.enumerated() where n > 0 {
                    if column.numericFlags[id] != 0, !column.numbers[id].isNaN {
                        let value = column.numbers[id]
                        tallies[i].statsCount += Int(n)
                        tallies[i].min = Swift.min(tallies[i].min, value)
                        tallies[i].max = Swift.max(tallies[i].max, value)
                        tallies[i].sum += value * Double(n)
                    }
                }
            }
        }
        return tallies
    }

    private static func fullWord(_ w: Int, _ n: Int) -> UInt64 {
        (w + 1) << 6 <= n ? .max : (1 << UInt64(n & 63)) - 1
    }

    /// Counts per value id of `column` over `documents` passing `required`.
    private static func tally(_ column: FacetColumn, _ documents: [UInt32], _ passes: [UInt64], required: UInt64) -> [UInt32] {
        var counts = [UInt32](repeating: 0, count: column.values.count)
        counts.withUnsafeMutableBufferPointer { counts in
            column.starts.withUnsafeBufferPointer { starts in
                column.ids.withUnsafeBufferPointer { ids in
                    documents.withUnsafeBufferPointer { documents in
                        if required == 0 || passes.isEmpty {
                            for d in documents {
                                for i in Int(starts[Int(d)])..<Int(starts[Int(d) + 1]) { counts[Int(ids[i])] &+= 1 }
                            }
                        } else {
                            passes.withUnsafeBufferPointer { passes in
                                for (j, d) in documents.enumerated() where passes[j] & required == required {
                                    for i in Int(starts[Int(d)])..<Int(starts[Int(d) + 1]) { counts[Int(ids[i])] &+= 1 }
                                }
                            }
                        }
                    }
                }
            }
        }
        return counts
    }
}
