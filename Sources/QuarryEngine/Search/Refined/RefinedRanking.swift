import QuarryJSON
import QuarryFilters

/// How are hits ordered when the ranking needs more than the packed key: the `geo` and `filters`
/// criteria (`aroundLatLng`, `optionalFilters`), `distinct`, and relevant sort on a virtual replica?
///
/// Every hit gets its criterion values, in `ranking` order, and the hits are fully sorted: these
/// searches give up the early stop of `SegmentRanker` for exact `distinct` counts and sorted sets.
/// Relevant sort keeps the hits tied with the best one on the first ⌈T × strictness / 100⌉ of the
/// T textual criteria (every criterion of `ranking` except `custom`, `asc` and `desc`), then orders
/// them by `customRanking` alone: 100 keeps only full ties with the best hit, 0 keeps every hit.
struct RefinedRanking {
    let index: SearchIndex
    let parameters: SearchParameters
    let plan: FilterPlan
    /// Relevant sort's strictness; nil when this is not a virtual replica.
    let strictness: Int?
    let distinct: Int
    private let ranking: [RankingCriterion]

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
        ranking = settings.ranking
    }

    /// One hit's values for every criterion but `custom`/`asc`/`desc`, lower is better.
    private struct Entry {
        var segment: Int
        var ordinal: Int
        var textual: [Int]
        var geoDistance: Int
        var filters: Int
    }

    func rank(candidates: [Candidates]?, words: [[MatchedTerms]], wanted: Int, nbHits: Int) -> Result {
        var entries: [Entry] = []
        let textualCriteria = ranking.filter { !Self.isStatic($0) }
        let optional = parameters.refinements.optionalFilters.map { FilterExpression(clauses: [$0]) }
        for (s, segment) in index.segments.enumerated() {
            let filter = SegmentFilter(segment: segment, dead: index.dead[s])
            let optionalMasks = optional.map { filter.mask($0) }
            let terms = words.isEmpty ? [] : words[s]
            let proximity = terms.count > 1 ? ProximityScorer(segment: segment, words: terms) : nil
            let add = { (d: Int) in
                var entry = Entry(segment: s, ordinal: d, textual: [], geoDistance: Int.max, filters: 0)
                for mask in optionalMasks where mask[d >> 6] & (1 << UInt64(d & 63)) != 0 { entry.filters += 1 }
                if let center = parameters.refinements.geo?.center, d < segment.facets.geo.latitudes.count {
                    let lat = segment.facets.geo.latitudes[d], lng = segment.facets.geo.longitudes[d]
                    if !lat.isNaN && !lng.isNaN { entry.geoDistance = Int(GeoQuery.distance(center.lat, center.lng, lat, lng).rounded()) }
                }
                for criterion in textualCriteria {
                    switch criterion {
                    case .typo: entry.textual.append(candidates.map { Int($0[s].typos[d]) } ?? 0)
                    case .geo: entry.textual.append(entry.geoDistance)
                    case .words: entry.textual.append(0)
                    case .filters: entry.textual.append(-entry.filters)
                    case .proximity: entry.textual.append(proximity?.proximity(of: d) ?? 0)
                    case .attribute: entry.textual.append(candidates.map { Int($0[s].attribute[d] & ~AttributeScore.typoDisabledFlag) } ?? 0)
                    case .exact: entry.textual.append(-(candidates.map { Int($0[s].exact[d]) } ?? 0))
                    case .custom, .asc, .desc: break
                    }
                }
                entries.append(entry)
            }
            if let candidates {
                candidates[s].forEach(dead: plan.hitDead[s]) { add($0); return true }
            } else {
                for d in 0..<segment.count where !plan.hitDead[s].contains(d) { add(d) }
            }
        }
        entries.sort(by: precedes)
        var nbSortedHits: Int? = nil
        if let strictness {
            if let best = entries.first {
                let p = (textualCriteria.count * strictness + 99) / 100
                entries = entries.filter { Array($0.textual.prefix(p)) == Array(best.textual.prefix(p)) }
                entries.sort { staticOrder($0, $1) }
            }
            nbSortedHits = entries.count
        }
        if distinct > 0, let attribute = index.settings.attributeForDistinct {
            var seen: [String: Int] = [:]
            entries = entries.filter { entry in
                guard let column = index.segments[entry.segment].facets.column(attribute),
                      entry.ordinal + 1 < column.starts.count, column.starts[entry.ordinal] < column.starts[entry.ordinal + 1]
                else { return true }
                let key = column.values[Int(column.ids[Int(column.starts[entry.ordinal])])]
                seen[key, default: 0] += 1
                return seen[key, default: 0] <= distinct
            }
            if nbSortedHits != nil { nbSortedHits = entries.count }
        }
        let page = entries.prefix(wanted)
        return Result(ranked: page.map { RankedDocument(segment: $0.segment, ordinal: $0.ordinal, key: RankingKey()) },
                      nbHits: distinct > 0 ? entries.count : nbHits,
                      nbSortedHits: nbSortedHits, details: page.map { ($0.geoDistance, $0.filters) })
    }

    private static func isStatic(_ criterion: RankingCriterion) -> Bool {
        switch criterion {
        case .custom, .asc, .desc: true
        default: false
        }
    }

    /// `ranking` order: textual values, `asc`/`desc` and `custom` by stored values, then docID.
    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        var t = 0
        let order = index.order
        let va = index.segments[a.segment].values(of: a.ordinal), vb = index.segments[b.segment].values(of: b.ordinal)
        var sortKey = 0
        for criterion in ranking {
            switch criterion {
            case .custom:
                if let keys = order.customKeys {
                    let c = order.compare(va, vb, keys: keys)
                    if c != 0 { return c < 0 }
                }
            case .asc, .desc:
                if sortKey < order.sortCriterionKeys.count {
                    let k = order.sortCriterionKeys[sortKey]
                    let c = order.compare(va, vb, keys: k..<k + 1)
                    if c != 0 { return c < 0 }
                }
                sortKey += 1
            default:
                if a.textual[t] != b.textual[t] { return a.textual[t] < b.textual[t] }
                t += 1
            }
        }
        return index.segments[a.segment].docIDs[a.ordinal] < index.segments[b.segment].docIDs[b.ordinal]
    }

    /// `customRanking` (and `asc`/`desc`) only, then docID: relevant sort's order.
    private func staticOrder(_ a: Entry, _ b: Entry) -> Bool {
        let order = index.order
        let va = index.segments[a.segment].values(of: a.ordinal), vb = index.segments[b.segment].values(of: b.ordinal)
        let c = order.compare(va, vb, keys: 0..<order.keys.count)
        if c != 0 { return c < 0 }
        return index.segments[a.segment].docIDs[a.ordinal] < index.segments[b.segment].docIDs[b.ordinal]
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
