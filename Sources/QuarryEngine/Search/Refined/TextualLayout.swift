import QuarrySearchContract

/// The textual criteria of `ranking` (all but `custom`, `asc`, `desc`), packed most significant
/// first into two words so that comparing two hits, or checking that they tie on the first p
/// criteria (relevant sort), is a couple of integer operations.
struct TextualLayout {
    struct Field {
        let criterion: RankingCriterion
        let word: Int
        let shift: UInt64
        let bits: Int
    }

    let fields: [Field]

    init(ranking: [RankingCriterion]) {
        var fields: [Field] = [], word = 0, free = 64
        for criterion in ranking {
            let bits: Int
            switch criterion {
            case .typo, .exact: bits = 6
            case .geo: bits = 25
            case .words: bits = 0
            case .filters: bits = 8
            case .proximity: bits = 9
            case .attribute: bits = 16
            case .custom, .asc, .desc: continue
            }
            if bits > free { word += 1; free = 64 }
            // Seven criteria need at most 70 bits; a repeated criterion past 128 bits is dropped.
            guard word < 2 else { break }
            free -= bits
            fields.append(Field(criterion: criterion, word: word, shift: UInt64(free), bits: bits))
        }
        self.fields = fields
        for field in fields where field.bits > 0 {
            if let slot = Self.slot(field.criterion), slots[slot].word < 0 {
                slots[slot] = (field.word, field.shift, (1 << field.bits) - 1)
            }
        }
    }

    /// One hit's values; each is clamped to its field (lower is better after `pack`).
    struct Values {
        var typos = 0, geoDistance = Int.max, filters = 0, proximity = 0, attribute = 0, exact = 0
    }

    /// Per criterion: the word (0 or 1) and shift of its field; word -1 when absent.
    private var slots: [(word: Int, shift: UInt64, limit: Int)] = Array(repeating: (-1, 0, 0), count: 6)

    private static func slot(_ criterion: RankingCriterion) -> Int? {
        switch criterion {
        case .typo: 0
        case .geo: 1
        case .filters: 2
        case .proximity: 3
        case .attribute: 4
        case .exact: 5
        default: nil
        }
    }

    @inline(__always)
    private func put(_ slot: Int, _ value: Int, _ words: inout (UInt64, UInt64)) {
        let s = slots[slot]
        if s.word == 0 { words.0 |= UInt64(min(value, s.limit)) << s.shift } else if s.word == 1 { words.1 |= UInt64(min(value, s.limit)) << s.shift }
    }

    @inline(__always)
    func pack(_ v: Values) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        put(0, v.typos, &words)
        put(1, v.geoDistance, &words)
        put(2, slots[2].limit - min(v.filters, slots[2].limit), &words)
        put(3, v.proximity, &words)
        put(4, v.attribute, &words)
        put(5, slots[5].limit - min(v.exact, slots[5].limit), &words)
        return words
    }

    /// The bits of the first `count` fields.
    func masks(prefix count: Int) -> (UInt64, UInt64) {
        var masks: (UInt64, UInt64) = (0, 0)
        for field in fields.prefix(count) where field.bits > 0 {
            let mask: UInt64 = ((1 << UInt64(field.bits)) - 1) << field.shift
            if field.word == 0 { masks.0 |= mask } else { masks.1 |= mask }
        }
        return masks
    }

    func needs(_ criterion: RankingCriterion) -> Bool { fields.contains { $0.criterion == criterion } }
}
