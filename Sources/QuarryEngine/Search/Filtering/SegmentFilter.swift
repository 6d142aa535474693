import QuarryFilters
import QuarryRecords

/// Which live documents of one segment pass a filter expression, as bitset words over ordinals?
///
/// Facet and tag atoms union the postings of the matching value ids (found by one dictionary
/// probe in the column); numeric atoms scan the contiguous column; NOT complements within the live
/// documents. Clauses OR their atoms, the expression ANDs its clauses: whole words at a time.
struct SegmentFilter {
    let segment: Segment
    /// Bit set for every live ordinal.
    let live: [UInt64]

    init(segment: Segment, dead: Bitset) {
        self.segment = segment
        let n = segment.count
        var live = [UInt64](repeating: .max, count: (n + 63) >> 6)
        if n & 63 != 0, !live.isEmpty { live[live.count - 1] = (1 << UInt64(n & 63)) - 1 }
        let deadWords = dead.words
        for w in 0..<min(live.count, deadWords.count) { live[w] &= ~deadWords[w] }
        self.live = live
    }

    /// Live documents matching `expression`.
    func mask(_ expression: FilterExpression) -> [UInt64] {
        var result = live
        for clause in expression.clauses {
            var any = [UInt64](repeating: 0, count: live.count)
            for atom in clause {
                let matched = mask(atom)
                for w in any.indices { any[w] |= matched[w] }
            }
            for w in result.indices { result[w] &= any[w] }
        }
        return result
    }

    /// Live documents matching one atom (negation applied).
    func mask(_ atom: FilterAtom) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: live.count)
        switch atom.condition {
        case .facet(let attribute, let value):
            if let column = segment.facets.column(attribute) { set(&bits, column, Self.ids(column, value)) }
        case .tag(let tag):
            if let column = segment.facets.column(FacetValues.tagsAttribute), let id = column.id(exactly: tag) {
                set(&bits, column, [id])
            }
        case .comparison(let attribute, let op, let bound):
            guard let column = segment.facets.numericColumn(attribute) else { break }
            // One loop per operator, so the test inlines into the branch-free word builder.
            switch op {
            case .less: scan(&bits, column) { $0 < bound }
            case .lessOrEqual: scan(&bits, column) { $0 <= bound }
            case .equal: scan(&bits, column) { $0 == bound }
            case .notEqual: scan(&bits, column) { $0 != bound }
            case .greaterOrEqual: scan(&bits, column) { $0 >= bound }
            case .greater: scan(&bits, column) { $0 > bound }
            }
        case .range(let attribute, let lower, let upper):
            if let column = segment.facets.numericColumn(attribute) { scan(&bits, column) { lower <= $0 && $0 <= upper } }
        }
        for w in bits.indices { bits[w] = (atom.isNegated ? ~bits[w] : bits[w]) & live[w] }
        return bits
    }

    /// Value ids a facet filter value matches: same text ignoring case, or the same number.
    static func ids(_ column: FacetColumn, _ value: FacetValue) -> [UInt32] {
        var ids = column.ids(ignoringCase: value.text)
        let number: Double? = switch value {
        case .number(let d): d
        case .string(let s): FacetColumn.number(s)
        case .bool: nil
        }
        if let number {
            for (id, n) in column.numbers.enumerated() where n == number && !ids.contains(UInt32(id)) { ids.append(UInt32(id)) }
        }
        return ids
    }

    private func set(_ bits: inout [UInt64], _ column: FacetColumn, _ ids: [UInt32]) {
        if !column.valueBits.isEmpty {
            // Few values: OR whole rows of the value bitsets.
            let words = column.wordCount
            column.valueBits.withUnsafeBufferPointer { rows in
                bits.withUnsafeMutableBufferPointer { bits in
                    for id in ids {
                        let row = Int(id) * words
                        for w in 0..<min(words, bits.count) { bits[w] |= rows[row + w] }
                    }
                }
            }
            return
        }
        bits.withUnsafeMutableBufferPointer { bits in
            for id in ids {
                column.valueDocuments.add(Int(id), to: bits)
            }
        }
    }

    /// Documents without a number (NaN) never match.
    @inline(__always)
    private func scan(_ bits: inout [UInt64], _ column: NumericColumn, _ test: (Double) -> Bool) {
        let n = segment.count
        if column.isSingleValued {
            if !column.numbers.integers.isEmpty {
                column.numbers.integers.withUnsafeBufferPointer { Self.scan(&bits, $0, documents: n, test) }
            } else if !column.numbers.floats.isEmpty {
                column.numbers.floats.withUnsafeBufferPointer { Self.scan(&bits, $0, documents: n, test) }
            } else {
                column.numbers.doubles.withUnsafeBufferPointer { Self.scan(&bits, $0, documents: n, test) }
            }
        } else {
            for d in 0..<n where column.any(d, test) { bits[d >> 6] |= 1 << UInt64(d & 63) }
        }
    }

    /// 64 documents per word without a branch per document (matches are unpredictable).
    @inline(__always)
    private static func scan<Number: StoredNumber>(_ bits: inout [UInt64], _ values: UnsafeBufferPointer<Number>, documents n: Int,
                                                          _ test: (Double) -> Bool) {
        bits.withUnsafeMutableBufferPointer { bits in
            let count = min(n, values.count, bits.count * 64)
            var start = 0
            while start < count {
                let end = min(start + 64, count)
                var word: UInt64 = 0
                for d in start..<end {
                    let v = values[d].number
                    word |= UInt64(truncatingIfNeeded: (!v.isNaN && test(v)) ? 1 : 0) << UInt64(d - start)
                }
                bits[start >> 6] |= word
                start = end
            }
        }
    }
}

extension Bitset {
    /// The dead set that also excludes every live document not in `keep`.
    static func excluding(dead: Bitset, keep: [UInt64], live: [UInt64]) -> Bitset {
        var words = dead.words
        if words.count < live.count { words += repeatElement(0, count: live.count - words.count) }
        for w in live.indices { words[w] |= live[w] & ~keep[w] }
        return Bitset(words: words)
    }
}
