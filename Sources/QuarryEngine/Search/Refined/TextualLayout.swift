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
    }

    /// One hit's values; each is clamped to its field (lower is better after `pack`).
    struct Values {
        var typos = 0, geoDistance = Int.max, filters = 0, proximity = 0, attribute = 0, exact = 0
    }

    func pack(_ v: Values) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        for field in fields where field.bits > 0 {
            let limit = (1 << field.bits) - 1
            let value: Int = switch field.criterion {
            case .typo: min(v.typos, limit)
            case .geo: min(v.geoDistance, limit)
            case .filters: limit - min(v.filters, limit)
            case .proximity: min(v.proximity, limit)
            case .attribute: min(v.attribute, limit)
            case .exact: limit - min(v.exact, limit)
            default: 0
            }
            if field.word == 0 { words.0 |= UInt64(value) << field.shift } else { words.1 |= UInt64(value) << field.shift }
        }
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
