/// For one attribute of one segment: which facet values does each document hold, and which
/// documents hold each value?
///
/// Values are interned to dense ids by exact text. Documents map to their value ids (one id each when
/// no document holds two, else CSR by ordinal, for counting) and each value to its documents
/// (`ValueDocuments`, for filtering). An index by text and an order by case-folded text are derived
/// when the column is made, so matching a filter value costs a probe or a binary search, never a scan
/// of the documents.
///
/// A class: every search copies the columns it counts (into its tallies and their merge), and a copy of
/// a struct of sixteen arrays retained each, with atomic increments on counts every concurrent search
/// shares; beside a stream of batches, over ten segments' columns, those copies were the search threads'
/// largest site of retains and releases (Benchmarks/RESULTS.md, "Keystrokes over a stream's segments").
final class FacetColumn: Sendable {
    /// Which values each document holds, as saved in the index file.
    enum DocumentValues {
        /// Document `d`'s value id at `d`, `UInt16.max` for none: 2 bytes a document where CSR takes
        /// 8, for the brands and categories that most facets are.
        case singles(StoredArray<UInt16>)
        /// `starts[d]..<starts[d + 1]` index `ids` for document `d`.
        case lists(starts: StoredArray<UInt32>, ids: StoredArray<UInt32>)

        /// The column's `starts`, `ids` and `singles`: one form held, the other empty.
        var arrays: (StoredArray<UInt32>, StoredArray<UInt32>, StoredArray<UInt16>) {
            switch self {
            case .singles(let singles): (StoredArray(), StoredArray(), singles)
            case .lists(let starts, let ids): (starts, ids, StoredArray())
            }
        }
    }

    let name: String
    /// Value id → text as first seen.
    let values: [String]
    /// Value id → 1 when some record held it as a JSON number (these feed `facets_stats`).
    let numericFlags: [UInt8]
    /// `starts[d]..<starts[d + 1]` index `ids` for ordinal `d`; both empty when `singles` holds the values.
    let starts: StoredArray<UInt32>
    let ids: StoredArray<UInt32>
    /// When every document holds at most one of fewer than 65,535 values: each document's value id,
    /// `UInt16.max` for none (one load per document); else empty, as when the column has no values.
    let singles: StoredArray<UInt16>
    let documentCount: Int

    /// Value ids by lower-cased text (facet filters ignore case): 4 bytes a value where a hash table of
    /// strings took about 30, and a tag column can hold 75,000 values.
    let byFoldedText: [UInt32]
    /// Value id → the number its text spells, or NaN; empty when no value spells one (tags, brands: 8 bytes a
    /// value that each segment of a stream held for its own values).
    let numbers: [Double]
    /// Value id → its text's `hashValue` (this process's seed), and the ids by those hashes (open
    /// addressing from `hash & (count - 1)`, -1 empty): a value is found by its exact text (tags compare
    /// exactly), and counts of several segments merge by text without hashing any counted value per
    /// search (`FacetResponse`).
    let textHashes: [Int]
    let textSlots: [Int32]
    /// Each value's documents (what filters read) and their counts.
    let valueDocuments: ValueDocuments
    /// This column's value ids in another's, once asked for (`FacetResponse`).
    let translations = FacetTranslations()
    /// Every document holds at most one value: counting can skip the CSR indirection.
    let isSingleValued: Bool
    /// Value id → its place among the values in code-point order (ties of counts break on it).
    let alphaRanks: [UInt32]
    /// Some value came from a JSON number: the column feeds `facets_stats`.
    let hasNumbers: Bool
    /// For few values: value `v`'s documents as bitset words `v * wordCount ..< (v + 1) * wordCount`,
    /// so a count is a popcount of an AND with the matches; empty when too many values.
    let valueBits: [UInt64]
    let wordCount: Int
    /// Bitset bytes a column may spend on `valueBits`.
    static let bitsetBudget = 16 << 20
    /// Columns with this many values or more keep no `valueBits`.
    static let popcountValueLimit = 256

    /// A column built from CSR, kept as one id per document when it can be.
    convenience init(name: String, values: [String], numericFlags: [UInt8], starts: StoredArray<UInt32>, ids: StoredArray<UInt32>) {
        let documents = max(starts.count - 1, 0)
        let single = (0..<documents).allSatisfy { starts[$0 + 1] - starts[$0] <= 1 }
        guard single && values.count < Int(UInt16.max) else {
            self.init(name: name, values: values, numericFlags: numericFlags, documents: .lists(starts: starts, ids: ids),
                      count: documents)
            return
        }
        // No value at all (a `_tags` no record has): no document needs an entry.
        var singles = [UInt16](repeating: .max, count: values.isEmpty ? 0 : documents)
        for d in 0..<singles.count where starts[d] != starts[d + 1] { singles[d] = UInt16(ids[Int(starts[d])]) }
        self.init(name: name, values: values, numericFlags: numericFlags, documents: .singles(StoredArray(singles)),
                  count: documents)
    }

    /// `valueDocuments` when saved with the column (else derived from the documents' values), checked by the caller.
    init(name: String, values: [String], numericFlags: [UInt8], documents held: DocumentValues, count documents: Int,
         valueDocuments saved: ValueDocuments? = nil) {
        self.name = name
        self.values = values
        self.numericFlags = numericFlags
        (starts, ids, singles) = held.arrays
        isSingleValued = switch held {
        case .singles: true
        case .lists(let starts, _): (0..<documents).allSatisfy { starts[$0 + 1] - starts[$0] <= 1 }
        }
        documentCount = documents
        var numbers: [Double] = []
        for (id, text) in values.enumerated() {
            guard let number = Self.number(text) else { continue }
            if numbers.isEmpty { numbers = [Double](repeating: .nan, count: values.count) }
            numbers[id] = number
        }
        self.numbers = numbers
        let textHashes = values.map(\.hashValue)
        self.textHashes = textHashes
        textSlots = Self.slots(textHashes)
        let byText = values.indices.sorted { values[$0] < values[$1] }
        let folded = values.map { $0.lowercased() }
        byFoldedText = values.indices.sorted { folded[$0] != folded[$1] ? folded[$0] < folded[$1] : $0 < $1 }.map { UInt32($0) }
        if let saved {
            valueDocuments = saved
        } else {
            var valueStarts = [UInt32](repeating: 0, count: values.count + 1)
            for d in 0..<documents { Self.forEachValue(of: d, singles, starts, ids) { valueStarts[$0 + 1] += 1 } }
            for v in 0..<values.count { valueStarts[v + 1] += valueStarts[v] }
            var cursor = valueStarts
            var plain = [UInt32](repeating: 0, count: Int(valueStarts[values.count]))
            for d in 0..<documents {
                Self.forEachValue(of: d, singles, starts, ids) { v in
                    plain[Int(cursor[v])] = UInt32(d)
                    cursor[v] += 1
                }
            }
            valueDocuments = ValueDocuments(starts: valueStarts, ordinals: plain, documents: documents)
        }
        var ranks = [UInt32](repeating: 0, count: values.count)
        for (rank, id) in byText.enumerated() { ranks[id] = UInt32(rank) }
        alphaRanks = ranks
        hasNumbers = numericFlags.contains(1)
        let words = (documents + 63) >> 6
        wordCount = words
        // Counting popcounts rows only when values × words < 4 × matches (`FacetCounter`), which no set of
        // matches allows from 256 values up: past that the rows would be dead weight (11 MiB for 9,000 tags at 10k).
        if values.count * words * 8 <= Self.bitsetBudget && !values.isEmpty && values.count < Self.popcountValueLimit {
            var bits = [UInt64](repeating: 0, count: values.count * words)
            for v in values.indices {
                valueDocuments.forEachDocument(of: v) { d in bits[v * words + d >> 6] |= 1 << UInt64(d & 63) }
            }
            valueBits = bits
        } else {
            valueBits = []
        }
    }

    /// `saved` as read back from the file it was saved to: its documents' values and each value's
    /// documents read in place, what `init` derives from the values taken from `saved` (equal, as the
    /// file's checksum vouches), not derived again beside it.
    init(documents held: DocumentValues, valueDocuments: ValueDocuments, derivedAs saved: FacetColumn) {
        name = saved.name
        values = saved.values
        numericFlags = saved.numericFlags
        (starts, ids, singles) = held.arrays
        isSingleValued = saved.isSingleValued
        documentCount = saved.documentCount
        byFoldedText = saved.byFoldedText
        numbers = saved.numbers
        textHashes = saved.textHashes
        textSlots = saved.textSlots
        self.valueDocuments = valueDocuments
        alphaRanks = saved.alphaRanks
        hasNumbers = saved.hasNumbers
        valueBits = saved.valueBits
        wordCount = saved.wordCount
    }

    /// Calls `body` with each value id document `d` holds.
    @inline(__always)
    func forEachValue(of d: Int, _ body: (Int) -> Void) { Self.forEachValue(of: d, singles, starts, ids, body) }

    /// Document `d`'s first value id, if it holds any.
    func firstValue(of d: Int) -> Int? {
        if !singles.isEmpty { return d < singles.count && singles[d] != .max ? Int(singles[d]) : nil }
        guard d + 1 < starts.count, starts[d] < starts[d + 1] else { return nil }
        return Int(ids[Int(starts[d])])
    }

    /// The same, for `init` to call before `self` is whole.
    @inline(__always)
    private static func forEachValue(of d: Int, _ singles: StoredArray<UInt16>, _ starts: StoredArray<UInt32>,
                                     _ ids: StoredArray<UInt32>, _ body: (Int) -> Void) {
        if !singles.isEmpty {
            if d < singles.count && singles[d] != .max { body(Int(singles[d])) }
        } else if d + 1 < starts.count {
            for i in Int(starts[d])..<Int(starts[d + 1]) { body(Int(ids[i])) }
        }
    }

    /// The id of the value spelled `text` exactly.
    func id(exactly text: String) -> UInt32? {
        id(text: text, hash: text.hashValue).map { UInt32($0) }
    }

    /// The id of the value spelled `text`, whose `hashValue` is `hash`.
    func id(text: String, hash: Int) -> Int? {
        let mask = textSlots.count - 1
        var slot = hash & mask
        while true {
            let id = Int(textSlots[slot])
            if id < 0 { return nil }
            if textHashes[id] == hash && values[id] == text { return id }
            slot = (slot + 1) & mask
        }
    }

    private static func slots(_ hashes: [Int]) -> [Int32] {
        var size = 16
        while size < hashes.count * 2 { size <<= 1 }
        var slots = [Int32](repeating: -1, count: size)
        let mask = size - 1
        for (id, hash) in hashes.enumerated() {
            var slot = hash & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
        return slots
    }

    /// The ids of the values equal to `text` ignoring case, ascending.
    func ids(ignoringCase text: String) -> [UInt32] {
        let key = text.lowercased()
        var at = Self.lowerBound(byFoldedText) { values[Int($0)].lowercased() < key }
        var ids: [UInt32] = []
        while at < byFoldedText.count && values[Int(byFoldedText[at])].lowercased() == key {
            ids.append(byFoldedText[at])
            at += 1
        }
        return ids
    }

    /// The first index of `order` whose value is not `before` the key.
    private static func lowerBound(_ order: [UInt32], before: (UInt32) -> Bool) -> Int {
        var low = 0, high = order.count
        while low < high {
            let mid = (low + high) / 2
            if before(order[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The number value `id`'s text spells, if it spells one (`numbers` is empty when none does).
    func number(of id: Int) -> Double? {
        id < numbers.count && !numbers[id].isNaN ? numbers[id] : nil
    }

    /// The number a facet text spells: plain decimal notation only (no `inf`, `nan` or hex).
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B })
        else { return nil }
        guard let d = Double(text), d.isFinite else { return nil }
        return d
    }
}
