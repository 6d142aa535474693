import QuarryFilters
import QuarryJSON

/// How are hits ordered when the ranking needs more than the packed key: the `geo` and `filters`
/// criteria (`aroundLatLng`, `optionalFilters`), `distinct`, and relevant sort on a virtual replica?
///
/// Every hit gets a `TextualLayout` key. Without distinct or relevant sort, each segment keeps its
/// best `wanted` in a bounded heap and the winners are merged. Distinct sorts every hit (exact
/// counts). Relevant sort keeps the hits tied with the best one on the first ⌈T × strictness / 100⌉
/// of the T textual criteria, then orders them by `customRanking` alone: 100 keeps only full ties
/// with the best hit, 0 keeps every hit (see protocol/relevant-sort.md).
struct RefinedRanking {
    let index: SearchIndex
    let parameters: SearchParameters
    let plan: FilterPlan
    /// Relevant sort's strictness; nil when this is not a virtual replica.
    let strictness: Int?
    let distinct: Int
    private let layout: TextualLayout

    struct Result {
        var ranked: [RankedDocument]
        var nbHits: Int
        var nbSortedHits: Int?
        /// Per ranked document: geo distance in meters and optional-filter score, for `_rankingInfo`.
        var details: [(geoDistance: Int, filters: Int)]
    }

    /// nil when the plain ranker answers alone.
    init?(index: SearchIndex, parameters: SearchParameters, plan: FilterPlan) {
        let settings = index.settings
        let distinct = settings.attributeForDistinct.map { $0.isEmpty ? 0 : parameters.distinct } ?? 0
        let strictness = settings.isVirtualReplica ? (parameters.refinements.relevancyStrictness ?? settings.relevancyStrictness) : nil
        let refinements = parameters.refinements
        guard distinct > 0 || strictness != nil || !refinements.optionalFilters.isEmpty || refinements.geo?.center != nil else {
            return nil
        }
        self.index = index
        self.parameters = parameters
        self.plan = plan
        self.strictness = strictness
        self.distinct = distinct
        layout = TextualLayout(ranking: settings.ranking)
    }

    private struct Entry {
        var segment: Int32
        var ordinal: UInt32
        var high: UInt64
        var low: UInt64
        var geoDistance: Int32
        var filters: UInt8
        /// Relevant sort computes proximity only for hits still tied with the best before it.
        var proximityPending: Bool
    }

    func rank(candidates: [Candidates]?, words: [[MatchedTerms]], wanted: Int, nbHits: Int) -> Result {
        let bounded = strictness == nil && distinct == 0
        var entries: [Entry] = []
        if !bounded { entries.reserveCapacity(nbHits) }
        let optional = parameters.refinements.optionalFilters.map { FilterExpression(clauses: [$0]) }
        let center = parameters.refinements.geo?.center
        let needsProximity = layout.needs(.proximity)
        let deferProximity = strictness != nil
        for (s, segment) in index.segments.enumerated() {
            let filter = SegmentFilter(segment: segment, dead: index.dead[s])
            let optionalMasks = optional.map { filter.mask($0) }
            let terms = words.isEmpty ? [] : words[s]
            let proximity = needsProximity && terms.count > 1 ? ProximityScorer(segment: segment, words: terms) : nil
            let geo = segment.facets.geo
            var top = TopK<Entry>(capacity: bounded ? wanted : 0)
            let add = { (d: Int) in
                var values = TextualLayout.Values()
                for mask in optionalMasks where mask[d >> 6] & (1 << UInt64(d & 63)) != 0 { values.filters += 1 }
                if let center, d < geo.latitudes.count, !geo.latitudes[d].isNaN, !geo.longitudes[d].isNaN {
                    values.geoDistance = Int(GeoQuery.distance(center.lat, center.lng, geo.latitudes[d], geo.longitudes[d]).rounded())
                }
                if let candidates {
                    values.typos = Int(candidates[s].typos[d])
                    values.attribute = Int(candidates[s].attribute[d] & ~AttributeScore.typoDisabledFlag)
                    values.exact = Int(candidates[s].exact[d])
                }
                // Proximity reads positions: first try the closest possible (one step per word pair).
                values.proximity = proximity == nil ? 0 : terms.count - 1
                var (high, low) = layout.pack(values)
                if bounded, top.isFull, !(RankingKey(high: high, middle: low, low: UInt64(d)) < top.threshold) { return }
                if let proximity, !deferProximity {
                    values.proximity = proximity.proximity(of: d)
                    (high, low) = layout.pack(values)
                }
                let entry = Entry(segment: Int32(s), ordinal: UInt32(d), high: high, low: low,
                                  geoDistance: Int32(clamping: values.geoDistance), filters: UInt8(min(values.filters, 255)),
                                  proximityPending: proximity != nil && deferProximity)
                if bounded {
                    // Inside a segment the ordinal is the static order: it breaks textual ties.
                    top.insert(RankingKey(high: high, middle: low, low: UInt64(d)), entry)
                } else {
                    entries.append(entry)
                }
            }
            if let candidates {
                candidates[s].forEach(dead: plan.hitDead[s]) { add($0); return true }
            } else {
                let dead = plan.hitDead[s]
                for d in 0..<segment.count where !dead.contains(d) { add(d) }
            }
            if bounded { entries += top.sorted().map(\.payload) }
        }
        var nbSortedHits: Int? = nil
        if let strictness {
            let p = (layout.fields.count * strictness + 99) / 100
            if let q = layout.fields.firstIndex(where: { $0.criterion == .proximity }), q < p {
                // Tie on the criteria before proximity first; only the survivors need positions.
                keepTiedWithBest(&entries, prefix: q)
                resolveProximity(&entries, words: words)
            }
            if !entries.isEmpty {
                keepTiedWithBest(&entries, prefix: p)
                // Entries arrived in ordinal (static) order per segment; only several segments need merging.
                if index.segments.count > 1 { entries.sort(by: staticOrder) }
            }
            nbSortedHits = entries.count
        } else {
            entries.sort(by: precedes)
        }
        if distinct > 0 { applyDistinct(&entries) }
        if nbSortedHits != nil { nbSortedHits = entries.count }
        let page = entries.prefix(wanted)
        return Result(ranked: page.map { RankedDocument(segment: Int($0.segment), ordinal: Int($0.ordinal), key: RankingKey()) },
                      nbHits: distinct > 0 && strictness == nil ? entries.count : nbHits,
                      nbSortedHits: nbSortedHits,
                      details: page.map { ($0.geoDistance == Int32.max ? Int.max : Int($0.geoDistance), Int($0.filters)) })
    }

    /// Keeps the entries equal to the best one on the first `prefix` textual criteria.
    private func keepTiedWithBest(_ entries: inout [Entry], prefix: Int) {
        let (m0, m1) = layout.masks(prefix: prefix)
        guard let best = entries.min(by: { ($0.high & m0, $0.low & m1) < ($1.high & m0, $1.low & m1) }) else { return }
        entries.removeAll { $0.high & m0 != best.high & m0 || $0.low & m1 != best.low & m1 }
    }

    /// Replaces the provisional proximity of pending entries with the real one.
    private func resolveProximity(_ entries: inout [Entry], words: [[MatchedTerms]]) {
        guard let field = layout.fields.first(where: { $0.criterion == .proximity }), !words.isEmpty else { return }
        let scorers = index.segments.indices.map { s in ProximityScorer(segment: index.segments[s], words: words[s]) }
        let mask: UInt64 = ((1 << UInt64(field.bits)) - 1) << field.shift
        for i in entries.indices where entries[i].proximityPending {
            let value = UInt64(min(scorers[Int(entries[i].segment)].proximity(of: Int(entries[i].ordinal)), (1 << field.bits) - 1)) << field.shift
            if field.word == 0 { entries[i].high = entries[i].high & ~mask | value } else { entries[i].low = entries[i].low & ~mask | value }
            entries[i].proximityPending = false
        }
    }

    /// Keeps at most `distinct` hits per value of `attributeForDistinct` (its first value); hits
    /// without one are kept.
    private func applyDistinct(_ entries: inout [Entry]) {
        guard let attribute = index.settings.attributeForDistinct else { return }
        var seen: [String: Int] = [:]
        let columns = index.segments.map { $0.facets.column(attribute) }
        entries.removeAll { entry in
            guard let column = columns[Int(entry.segment)] else { return false }
            let d = Int(entry.ordinal)
            guard d + 1 < column.starts.count, column.starts[d] < column.starts[d + 1] else { return false }
            let key = column.values[Int(column.ids[Int(column.starts[d])])]
            seen[key, default: 0] += 1
            return seen[key, default: 0] > distinct
        }
    }

    /// Textual key, then (same segment) the ordinal, else `ranking`'s static criteria by value, then docID.
    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.high != b.high { return a.high < b.high }
        if a.low != b.low { return a.low < b.low }
        if a.segment == b.segment { return a.ordinal < b.ordinal }
        return staticOrder(a, b)
    }

    /// `asc`/`desc` and `customRanking` by stored values, then docID: what ordinals encode per segment.
    private func staticOrder(_ a: Entry, _ b: Entry) -> Bool {
        if a.segment == b.segment { return a.ordinal < b.ordinal }
        let sa = index.segments[Int(a.segment)], sb = index.segments[Int(b.segment)]
        let c = index.order.compare(sa.values(of: Int(a.ordinal)), sb.values(of: Int(b.ordinal)), keys: 0..<index.order.keys.count)
        if c != 0 { return c < 0 }
        return sa.docIDs[Int(a.ordinal)] < sb.docIDs[Int(b.ordinal)]
    }
}

extension RefinedRanking {
    /// Puts the geo distance and optional-filter score into each page hit's `_rankingInfo`.
    static func annotate(_ hits: inout [JSONObject], _ result: Result, from pageStart: Int) {
        for (i, hit) in hits.enumerated() where hit["_rankingInfo"] != nil {
            let at = pageStart + i
            guard at < result.details.count, case .object(var info)? = hit["_rankingInfo"] else { continue }
            let detail = result.details[at]
            info["filters"] = JSON(detail.filters)
            info["geoDistance"] = JSON(detail.geoDistance == Int.max ? 0 : detail.geoDistance)
            hits[i]["_rankingInfo"] = .object(info)
        }
    }
}
