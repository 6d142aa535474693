/// Which of two ranked documents comes first when they may live in different segments?
///
/// Inside a segment the packed key decides. Across segments the textual fields still compare as
/// packed, but `custom` and `asc`/`desc` hold segment-local ordinals and ranks, so they compare by
/// the stored values; full ties fall back to the docID, as ordinals do inside a segment.
struct RankedDocument {
    var segment: Int
    var ordinal: Int
    var key: RankingKey
}

struct HitOrder {
    let layout: RankingLayout
    let order: StaticOrder
    let segments: [Segment]

    func precedes(_ a: RankedDocument, _ b: RankedDocument) -> Bool {
        if a.segment == b.segment { return a.key < b.key }
        let va = segments[a.segment].values(of: a.ordinal), vb = segments[b.segment].values(of: b.ordinal)
        for p in layout.placements {
            let c: Int
            switch p.field {
            case .custom:
                c = order.customKeys.map { order.compare(va, vb, keys: $0) } ?? 0
            case .sort(let k):
                let key = order.sortCriterionKeys[k]
                c = order.compare(va, vb, keys: key..<key + 1)
            default:
                let fa = Self.field(a.key, p), fb = Self.field(b.key, p)
                c = fa == fb ? 0 : (fa < fb ? -1 : 1)
            }
            if c != 0 { return c < 0 }
        }
        return segments[a.segment].docIDs[a.ordinal] < segments[b.segment].docIDs[b.ordinal]
    }

    /// The first `count` documents of `runs` (each one segment's, best first) in this order, taken by
    /// comparing the runs' heads: a page needs `count` of them, where sorting every segment's page
    /// compared each document about log₂ of all of them times (a keystroke over a stream's ten segments
    /// sorted 200 to keep 20).
    func merging(_ runs: [[RankedDocument]], first count: Int) -> [RankedDocument] {
        var heads = [Int](repeating: 0, count: runs.count)
        var merged: [RankedDocument] = []
        merged.reserveCapacity(min(count, runs.reduce(0) { $0 + $1.count }))
        while merged.count < count {
            var best: Int?
            for r in runs.indices where heads[r] < runs[r].count {
                if let b = best, !precedes(runs[r][heads[r]], runs[b][heads[b]]) { continue }
                best = r
            }
            guard let b = best else { break }
            merged.append(runs[b][heads[b]])
            heads[b] += 1
        }
        return merged
    }

    static func field(_ key: RankingKey, _ p: RankingLayout.Placement) -> UInt64 {
        let word = p.word == 0 ? key.high : (p.word == 1 ? key.middle : key.low)
        let mask: UInt64 = p.field.bits >= 64 ? .max : (1 << UInt64(p.field.bits)) - 1
        return (word >> p.shift) & mask
    }
}
