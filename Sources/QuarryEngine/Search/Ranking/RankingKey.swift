import QuarrySearchContract

/// How does one candidate compare with another under the configured `ranking`?
///
/// Each criterion that can differ between documents becomes a bit field, packed most significant
/// first in `ranking` order into a 192-bit integer, so the whole tie-break cascade is one integer
/// comparison in the hot loop. `geo`, `words` and `filters` tie for now (part 2 gives them fields).
/// Inside one segment `custom` is the ordinal (ordinals follow the static order) and `asc`/`desc` a
/// dense rank; across segments `HitOrder` compares those two by value instead.
struct RankingKey: Comparable, Sendable {
    var high: UInt64 = 0, middle: UInt64 = 0, low: UInt64 = 0

    static func < (a: RankingKey, b: RankingKey) -> Bool {
        if a.high != b.high { return a.high < b.high }
        if a.middle != b.middle { return a.middle < b.middle }
        return a.low < b.low
    }

    static let worst = RankingKey(high: .max, middle: .max, low: .max)
}

/// The criteria that produce a key field, and where each field sits.
struct RankingLayout: Sendable {
    enum Field: Sendable, Equatable {
        case typo, proximity, attribute, exact, custom
        /// The n-th `asc`/`desc` criterion.
        case sort(Int)

        var bits: Int {
            switch self {
            case .typo: 6
            case .proximity: 9
            case .attribute: 16
            case .exact: 6
            case .custom, .sort: 32
            }
        }
    }

    struct Placement: Sendable {
        let field: Field
        let word: Int
        let shift: UInt64
    }

    let placements: [Placement]
    let hasProximity: Bool
    /// When the ranking is textual criteria then `custom` (the default shape), the textual fields packed
    /// into one word, for `SegmentRanker`'s fast loop; nil otherwise.
    let textual: TextualPacking?

    struct TextualPacking: Sendable {
        var typo: UInt64 = 64, proximity: UInt64 = 64, attribute: UInt64 = 64, exact: UInt64 = 64

        /// Shifts of 64 drop the field (criterion absent). Values must already be clamped to their widths.
        @inline(__always)
        func pack(typos: UInt64, proximity p: UInt64, attribute a: UInt64, exact e: UInt64) -> UInt64 {
            (typo < 64 ? typos << typo : 0) | (proximity < 64 ? p << proximity : 0)
                | (attribute < 64 ? a << attribute : 0) | (exact < 64 ? (63 - e) << exact : 0)
        }
    }

    init(ranking: [RankingCriterion]) {
        var placements: [Placement] = []
        var word = 0, free = 64, sortIndex = 0
        // Ordinal last, so documents tying on every criterion keep the static (then docID) order.
        for criterion in ranking + [.custom] {
            let field: Field
            switch criterion {
            case .typo: field = .typo
            case .proximity: field = .proximity
            case .attribute: field = .attribute
            case .exact: field = .exact
            case .custom: field = .custom
            case .asc, .desc: field = .sort(sortIndex); sortIndex += 1
            case .geo, .words, .filters: continue
            }
            guard !placements.contains(where: { $0.field == field }) else { continue }
            if field.bits > free { word += 1; free = 64 }
            // Criteria past 192 bits are dropped; only rankings with four or more sorts get there.
            guard word < 3 else { break }
            free -= field.bits
            placements.append(Placement(field: field, word: word, shift: UInt64(free)))
        }
        self.placements = placements
        hasProximity = placements.contains { $0.field == .proximity }
        textual = Self.textualPacking(placements)
    }

    private static func textualPacking(_ placements: [Placement]) -> TextualPacking? {
        guard placements.last?.field == .custom else { return nil }
        var packing = TextualPacking()
        var free = 64
        for p in placements.dropLast() {
            free -= p.field.bits
            let shift = UInt64(free)
            switch p.field {
            case .typo: packing.typo = shift
            case .proximity: packing.proximity = shift
            case .attribute: packing.attribute = shift
            case .exact: packing.exact = shift
            case .custom, .sort: return nil
            }
        }
        return packing
    }

    /// The values a candidate has for each field; `exact` is stored inverted so lower is better.
    struct Values {
        var typos = 0, proximity = 0, exact = 0, ordinal = 0
        var attribute: UInt16 = 0
    }

    @inline(__always)
    func key(_ v: Values, sortRanks: [[UInt32]]) -> RankingKey {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        for p in placements {
            let value: UInt64
            switch p.field {
            case .typo: value = UInt64(min(v.typos, 63))
            case .proximity: value = UInt64(min(v.proximity, 511))
            case .attribute: value = UInt64(v.attribute & ~AttributeScore.typoDisabledFlag)
            case .exact: value = UInt64(63 - min(v.exact, 63))
            case .custom: value = UInt64(v.ordinal)
            case .sort(let k): value = k < sortRanks.count ? UInt64(sortRanks[k][v.ordinal]) : 0
            }
            switch p.word {
            case 0: words.0 |= value << p.shift
            case 1: words.1 |= value << p.shift
            default: words.2 |= value << p.shift
            }
        }
        return RankingKey(high: words.0, middle: words.1, low: words.2)
    }
}
