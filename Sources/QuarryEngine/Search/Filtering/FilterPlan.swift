import QuarryFilters
import QuarrySearchContract

/// For one search: which documents each segment's hits and facet counts may include.
///
/// `universeDead` excludes what the base filter (`filters` and the array forms, geo bounds)
/// rejects: text candidates are collected under it. Disjunctive groups and hierarchical selections
/// are *conditions*, one bitset each: hits must pass all of them (`hitDead`), while each counted
/// attribute requires only some (`required`): an or-group's own attribute skips its group, a
/// hierarchical level skips the deeper selections. So every count comes from the one universe.
struct FilterPlan {
    let refinements: SearchRefinements
    private(set) var universeDead: [Bitset]
    private(set) var hitDead: [Bitset]
    /// `[segment][condition]` bitset words of live documents passing the condition.
    private(set) var conditions: [[[UInt64]]] = []
    private(set) var live: [[UInt64]] = []
    /// Attributes to count, each with the conditions its documents must pass.
    private(set) var counted: [(attribute: String, required: UInt64)] = []
    /// Disjunctive attribute → values its group selects.
    private(set) var selected: [String: [String]] = [:]
    var hasConditions: Bool { !(conditions.first?.isEmpty ?? true) }

    init(index: SearchIndex, refinements: SearchRefinements) throws(BackendError) {
        self.refinements = refinements
        universeDead = index.dead
        hitDead = index.dead
        if refinements.isEmpty { return }

        let plan = try ConditionPlan(refinements)
        counted = plan.counted
        selected = plan.selected
        let expressions = plan.conditions
        let allHits = plan.hitConditions

        for (s, segment) in index.segments.enumerated() {
            let filter = SegmentFilter(segment: segment, dead: index.dead[s])
            var base = filter.mask(refinements.filter)
            if let geo = refinements.geo, geo.excludes { Self.applyGeo(geo, segment: segment, to: &base) }
            let masks = expressions.map { filter.mask($0) }
            var hits = base
            for (c, mask) in masks.enumerated() where allHits & (1 << UInt64(c)) != 0 {
                for w in hits.indices { hits[w] &= mask[w] }
            }
            universeDead[s] = Bitset.excluding(dead: index.dead[s], keep: base, live: filter.live)
            hitDead[s] = expressions.isEmpty ? universeDead[s] : Bitset.excluding(dead: index.dead[s], keep: hits, live: filter.live)
            conditions.append(masks)
            live.append(filter.live)
        }
    }

    /// Keeps the documents with some `_geoloc` point inside the radius and shapes.
    private static func applyGeo(_ geo: GeoQuery, segment: Segment, to bits: inout [UInt64]) {
        let column = segment.facets.geo
        for d in 0..<segment.count where bits[d >> 6] & (1 << UInt64(d & 63)) != 0 {
            let inside = column.points(of: d).contains { geo.contains(lat: column.latitudes[$0], lng: column.longitudes[$0]) }
            if !inside { bits[d >> 6] &= ~(1 << UInt64(d & 63)) }
        }
    }

    /// The hits' candidates from the universe's: with conditions, sparse lists drop what `hitDead`
    /// excludes and counts are recomputed (by popcount for dense candidates).
    func narrow(_ candidates: [Candidates], index: SearchIndex) -> [Candidates] {
        guard hasConditions else { return candidates }
        var result = candidates
        for s in result.indices {
            let dead = hitDead[s]
            if let list = result[s].list {
                let kept = list.filter { !dead.contains(Int($0)) }
                result[s].list = kept
                result[s].count = kept.count
            } else {
                let universe = universeBits(segment: index.segments[s], s, candidates: result[s])
                let deadWords = dead.words
                var count = 0
                for w in universe.indices { count += (universe[w] & ~(w < deadWords.count ? deadWords[w] : 0)).nonzeroBitCount }
                result[s].count = count
            }
        }
        return result
    }

    /// The universe of one segment as bitset words: `candidates` (nil: every document) minus `universeDead`.
    func universeBits(segment: Segment, _ s: Int, candidates: Candidates?) -> [UInt64] {
        let n = segment.count
        let dead = universeDead[s].words
        var words = [UInt64](repeating: 0, count: (n + 63) >> 6)
        if let candidates {
            if let list = candidates.list {
                for d in list { words[Int(d) >> 6] |= 1 << UInt64(d & 63) }
            } else {
                Self.stampBits(candidates.stamp, final: candidates.final, into: &words)
            }
        } else if !live.isEmpty {
            words = live[s]
        } else {
            for w in words.indices { words[w] = (w + 1) << 6 <= n ? .max : (1 << UInt64(n & 63)) - 1 }
        }
        for w in 0..<min(words.count, dead.count) { words[w] &= ~dead[w] }
        return words
    }

    /// Bit `d` set where `stamp[d] == final`, eight stamps per step (SWAR zero-byte test).
    static func stampBits(_ stamp: [UInt8], final: UInt8, into words: inout [UInt64]) {
        let n = stamp.count
        let ones: UInt64 = 0x0101_0101_0101_0101, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let broadcast = UInt64(final) &* ones
        stamp.withUnsafeBytes { raw in
            words.withUnsafeMutableBufferPointer { words in
                let whole = n / 64
                for w in 0..<whole {
                    var word: UInt64 = 0
                    for k in 0..<8 {
                        let t = raw.loadUnaligned(fromByteOffset: w * 64 + k * 8, as: UInt64.self) ^ broadcast
                        // High bit of each byte set exactly where that byte of `t` is zero.
                        let zero = ~(((t & low7) &+ low7) | t | low7)
                        // Gather the eight high bits into one byte.
                        let packed = ((zero >> 7) &* 0x0102_0408_1020_4080) >> 56
                        word |= packed << UInt64(k * 8)
                    }
                    words[w] = word
                }
                for d in whole * 64..<n where raw[d] == final { words[d >> 6] |= 1 << UInt64(d & 63) }
            }
        }
    }

    /// Live documents under `hitDead`, for the empty query.
    func hitCount(_ index: SearchIndex) -> Int {
        zip(index.segments, hitDead).reduce(0) { $0 + $1.0.count - $1.1.count }
    }
}
