import QuarryFilters
import QuarryJSON
import QuarrySearchContract

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
    }

    func rank(candidates: [Candidates]?, words: [[MatchedTerms]], wanted: Int, nbHits: Int) -> Result {
        let bounded = strictness == nil && distinct == 0
        var entries: [Entry] = []
        if !bounded { entries.reserveCapacity(nbHits) }
        let optional = parameters.refinements.optionalFilters.map { FilterExpression(clauses: [$0]) }
        let center = parameters.refinements.geo?.center
        let precision = max(1, Int(parameters.refinements.geo?.precision ?? 1))
        let needsProximity = layout.needs(.proximity)
        // Relevant sort streams: only hits tied with the best so far on the first `p` criteria stay.
        let p = strictness.map { (layout.fields.count * $0 + 99) / 100 } ?? 0
        let (m0, m1) = layout.masks(prefix: p)
        let proximityInPrefix = layout.fields.prefix(p).contains { $0.criterion == .proximity }
        var best: (UInt64, UInt64) = (.max, .max)
        // Strictness 0 keeps every hit in static (ordinal) order: each segment's first `wanted` suffice.
        let firstOnly = strictness != nil && p == 0 && distinct == 0
        for (s, segment) in index.segments.enumerated() {
            let filter = SegmentFilter(segment: segment, dead: index.dead[s])
            let optionalMasks = optional.map { filter.mask($0) }
            let terms = words.isEmpty ? [] : words[s]
            // Candidates may already hold every survivor's proximity (read with its tokens).
            let stored = candidates?[s].proximity
            let proximity = needsProximity && terms.count > 1 && stored == nil ? ProximityScorer(segment: segment, words: terms) : nil
            let geo = segment.facets.geo
            var top = TopK<Entry>(capacity: bounded ? wanted : 0)
            var taken = 0
            // Hoisted so the per-hit closure reads arrays, not copies of `Candidates`.
            let typos = candidates?[s].typos ?? [], attribute = candidates?[s].attribute ?? [], exact = candidates?[s].exact ?? []
            let add = { (d: Int) -> Bool in
                var values = TextualLayout.Values()
                var distance = Int.max
                for mask in optionalMasks where mask[d >> 6] & (1 << UInt64(d & 63)) != 0 { values.filters += 1 }
                if let center, let meters = geo.nearest(d, to: center) {
                    distance = Int(meters.rounded())
                    values.geoDistance = distance / precision
                }
                if d < typos.count {
                    values.typos = Int(typos[d])
                    values.attribute = Int(attribute[d] & ~AttributeScore.typoDisabledFlag)
                    values.exact = Int(exact[d])
                }
                // Proximity reads positions: first try the closest possible (one step per word pair).
                values.proximity = stored.map { Int($0[d]) } ?? (proximity == nil ? 0 : terms.count - 1)
                var (high, low) = layout.pack(values)
                if bounded, top.isFull, !(RankingKey(high: high, middle: low, low: UInt64(d)) < top.threshold) { return true }
                if strictness != nil && (high & m0, low & m1) > best { return true }
                if let proximity, strictness == nil || proximityInPrefix {
                    values.proximity = proximity.proximity(of: d)
                    (high, low) = layout.pack(values)
                }
                let entry = Entry(segment: Int32(s), ordinal: UInt32(d), high: high, low: low,
                                  geoDistance: Int32(clamping: distance), filters: UInt8(min(values.filters, 255)))
                if strictness != nil {
                    let key = (high & m0, low & m1)
                    if key > best { return true }
                    if key < best { best = key; entries.removeAll(keepingCapacity: true) }
                    entries.append(entry)
                    taken += 1
                    return !(firstOnly && taken >= wanted)
                } else if bounded {
                    // Inside a segment the ordinal is the static order: it breaks textual ties.
                    top.insert(RankingKey(high: high, middle: low, low: UInt64(d)), entry)
                } else {
                    entries.append(entry)
                }
                return true
            }
            if let candidates {
                candidates[s].forEach(dead: plan.hitDead[s]) { add($0) }
            } else {
                let dead = plan.hitDead[s]
                for d in 0..<segment.count where !dead.contains(d) { if !add(d) { break } }
            }
            if bounded { entries += top.sorted().map(\.payload) }
        }
        var nbSortedHits: Int? = nil
        if strictness != nil {
            // Entries arrived in ordinal (static) order per segment; only several segments need merging.
            if index.segments.count > 1 { entries.sort(by: staticOrder) }
            nbSortedHits = firstOnly ? nbHits : entries.count
        } else if distinct > 0 {
            var distinctHits = nbHits
            (entries, distinctHits) = distinctPage(entries, wanted: wanted)
            let page = entries.prefix(wanted)
            return Result(ranked: page.map { RankedDocument(segment: Int($0.segment), ordinal: Int($0.ordinal), key: RankingKey()) },
                          nbHits: distinctHits, nbSortedHits: nil,
                          details: page.map { ($0.geoDistance == Int32.max ? Int.max : Int($0.geoDistance), Int($0.filters)) })
        } else {
            entries.sort(by: precedes)
        }
        if distinct > 0 { applyDistinct(&entries) }
        if nbSortedHits != nil && distinct > 0 { nbSortedHits = entries.count }
        let page = entries.prefix(wanted)
        return Result(ranked: page.map { RankedDocument(segment: Int($0.segment), ordinal: Int($0.ordinal), key: RankingKey()) },
                      nbHits: nbHits,
                      nbSortedHits: nbSortedHits,
                      details: page.map { ($0.geoDistance == Int32.max ? Int.max : Int($0.geoDistance), Int($0.filters)) })
    }

    /// Distinct without relevant sort: the exact count of hits left after distinct (group sizes,
    /// no sorting), and the best entries in order, selecting a few times `wanted` at a time rather
    /// than sorting every hit.
    private func distinctPage(_ all: [Entry], wanted: Int) -> (page: [Entry], nbHits: Int) {
        guard let attribute = index.settings.attributeForDistinct else { return (all, all.count) }
        let columns = index.segments.map { $0.facets.column(attribute) }
        var perSegment = columns.map { [UInt32](repeating: 0, count: $0?.values.count ?? 0) }
        var withoutValue = 0
        for entry in all {
            guard let id = Self.group(columns[Int(entry.segment)], Int(entry.ordinal)) else { withoutValue += 1; continue }
            perSegment[Int(entry.segment)][id] += 1
        }
        var groups: [String: Int] = [:]
        for (s, counts) in perSegment.enumerated() {
            guard let column = columns[s] else { continue }
            for (id, n) in counts.enumerated() where n > 0 { groups[column.values[id], default: 0] += Int(n) }
        }
        let nbHits = withoutValue + groups.values.reduce(0) { $0 + min($1, distinct) }
        var k = max(wanted * 4, 64)
        while true {
            var selected: [Entry]
            if k >= all.count {
                selected = all.sorted(by: precedes)
            } else {
                // Bounded selection on the textual key (ties: segment, ordinal), then the exact order.
                var top = TopK<Entry>(capacity: k)
                for entry in all {
                    top.insert(RankingKey(high: entry.high, middle: entry.low, low: UInt64(entry.segment) << 32 | UInt64(entry.ordinal)), entry)
                }
                selected = top.sorted().map(\.payload)
                if index.segments.count > 1, let last = selected.last {
                    // Across segments ties on the textual key go by stored values, so the heap may have
                    // cut that last tie group short: keep only what precedes it, an exact prefix.
                    selected.removeAll { $0.high == last.high && $0.low == last.low }
                    selected.sort(by: precedes)
                }
            }
            let complete = k >= all.count
            applyDistinct(&selected)
            if complete || selected.count >= wanted { return (Array(selected.prefix(wanted)), nbHits) }
            k *= 4
        }
    }

    /// The value id of document `d`'s first value, its distinct group.
    private static func group(_ column: FacetColumn?, _ d: Int) -> Int? {
        column?.firstValue(of: d)
    }

    /// Keeps at most `distinct` hits per value of `attributeForDistinct` (its first value); hits
    /// without one are kept.
    private func applyDistinct(_ entries: inout [Entry]) {
        guard let attribute = index.settings.attributeForDistinct else { return }
        var seen: [String: Int] = [:]
        let columns = index.segments.map { $0.facets.column(attribute) }
        entries.removeAll { entry in
            guard let column = columns[Int(entry.segment)] else { return false }
            guard let value = column.firstValue(of: Int(entry.ordinal)) else { return false }
            let key = column.values[value]
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
    static func annotate(_ hits: inout [SearchHit], _ result: Result, from pageStart: Int) {
        for (i, hit) in hits.enumerated() where hit.record["_rankingInfo"] != nil {
            let at = pageStart + i
            guard at < result.details.count, case .object(var info)? = hit.record["_rankingInfo"] else { continue }
            let detail = result.details[at]
            info["filters"] = JSON(detail.filters)
            info["geoDistance"] = JSON(detail.geoDistance == Int.max ? 0 : detail.geoDistance)
            hits[i].record["_rankingInfo"] = .object(info)
        }
    }
}
