import QuarryJSON
import QuarrySearchContract
import QuarryText

/// In what order do documents rank when the text ties?
///
/// The record-level sort keys, in ranking order: each `asc(attr)`/`desc(attr)` of `ranking`, and the
/// `customRanking` entries at the place of `custom`. Values are numbers (booleans count 0/1); a record
/// missing one, or holding a non-number, goes after every record that has it, whatever the direction.
struct StaticOrder: Sendable {
    struct Key: Sendable, Equatable {
        var components: [String]
        var ascending: Bool
    }

    let keys: [Key]
    /// Index into `keys` of each `asc`/`desc` ranking criterion (those get their own ranking-key field).
    let sortCriterionKeys: [Int]
    /// Where the `customRanking` keys sit in `keys`, or nil when `ranking` has no `custom`.
    let customKeys: Range<Int>?

    init(settings: IndexSettings) {
        var keys: [Key] = [], sortCriterionKeys: [Int] = []
        var customKeys: Range<Int>?
        func key(_ path: String, _ ascending: Bool) -> Key {
            Key(components: path.trimmingSpaces.split(separator: ".").map(String.init), ascending: ascending)
        }
        for criterion in settings.ranking {
            switch criterion {
            case .asc(let path): sortCriterionKeys.append(keys.count); keys.append(key(path, true))
            case .desc(let path): sortCriterionKeys.append(keys.count); keys.append(key(path, false))
            case .custom:
                let start = keys.count
                for custom in settings.customRanking { keys.append(key(custom.attribute, custom.ascending)) }
                customKeys = start..<keys.count
            default: continue
            }
        }
        self.keys = keys
        self.sortCriterionKeys = sortCriterionKeys
        self.customKeys = customKeys
    }

    var isEmpty: Bool { keys.isEmpty }

    /// The record's values for every key; NaN where missing.
    func values(of record: JSONObject) -> [Double] {
        keys.map { key in
            guard let first = key.components.first, let root = record[first] else { return .nan }
            var found = Double.nan
            SearchableLayout.resolve(root, key.components.dropFirst()) { leaf in
                guard found.isNaN else { return }
                switch leaf {
                case .int(let i): found = Double(i)
                case .double(let d): found = d
                case .bool(let b): found = b ? 1 : 0
                default: break
                }
            }
            return found
        }
    }

    /// Three-way comparison of one key's values; NaN (missing) last.
    @inline(__always)
    func compare(_ a: Double, _ b: Double, key: Int) -> Int {
        if a.isNaN || b.isNaN { return a.isNaN == b.isNaN ? 0 : (a.isNaN ? 1 : -1) }
        if a == b { return 0 }
        return (a < b) == keys[key].ascending ? -1 : 1
    }

    /// Lexicographic comparison of two documents' value rows over `keys`.
    func compare<Row: RandomAccessCollection<Double>>(_ a: Row, _ b: Row, keys range: Range<Int>) -> Int where Row.Index == Int {
        for k in range {
            let c = compare(a[a.startIndex + k], b[b.startIndex + k], key: k)
            if c != 0 { return c }
        }
        return 0
    }
}
