/// How many typos separate a query word from a word of the text?
///
/// Damerau-Levenshtein (adjacent transposition counts one) over normalised bytes, where any edit that
/// touches the first letter of either word costs two: Algolia's rule that makes "tickael" two typos away
/// from "michael". The same cell rule drives the dictionary walk in `TypoMatcher`.
package enum TypoDistance {
    /// Cost of the edit at row `j` (text letter j) / column `i` (query letter i), 1-based.
    @inlinable @inline(__always)
    package static func cost(_ j: Int, _ i: Int) -> Int { (j == 1 || i == 1) ? 2 : 1 }

    /// Distance between `query` and all of `text` (`prefix == false`), or the smallest distance between
    /// `query` and a prefix of `text` with the length of that prefix (`prefix == true`); nil above `limit`.
    package static func distance(_ query: [UInt8], _ text: [UInt8], prefix: Bool, limit: Int) -> (typos: Int, length: Int)? {
        let m = query.count, n = text.count
        if !prefix && abs(m - n) > limit { return nil }
        // Any edit touching the first letter costs two, so under two typos the first letters must agree.
        if limit < 2, let q = query.first, let t = text.first, q != t { return nil }
        let width = m + 1
        var rows = [Int](repeating: 0, count: (n + 1) * width)
        for i in 1...max(m, 1) where i <= m { rows[i] = i + 1 }
        var best = prefix ? (typos: rows[m], length: 0) : (typos: Int.max, length: 0)
        if n == 0 { return rows[m] <= limit ? (rows[m], 0) : nil }
        for j in 1...n {
            fillRow(j: j, query: query, textByte: text[j - 1], previousTextByte: j > 1 ? text[j - 2] : nil, rows: &rows, width: width)
            let d = rows[j * width + m]
            if prefix && d < best.typos { best = (d, j) }
        }
        if !prefix { best = (rows[n * width + m], n) }
        return best.typos <= limit ? best : nil
    }

    /// Fills row `j` of the table from rows `j - 1` and `j - 2`. Inlinable (with `cost`): the engine's
    /// dictionary walk (`TypoMatcher`) fills one row per trie node, from another module.
    @inlinable @inline(__always)
    package static func fillRow(j: Int, query: [UInt8], textByte c: UInt8, previousTextByte: UInt8?, rows: inout [Int], width: Int) {
        let row = j * width, above = (j - 1) * width
        rows[row] = j + 1
        for i in 1..<width {
            let q = query[i - 1]
            var d = rows[above + i - 1] + (q == c ? 0 : cost(j, i))
            d = min(d, rows[row + i - 1] + (i == 1 ? 2 : 1), rows[above + i] + (j == 1 ? 2 : 1))
            if i > 1, j > 1, let p = previousTextByte, q == p, query[i - 2] == c, q != c {
                d = min(d, rows[(j - 2) * width + i - 2] + ((i == 2 || j == 2) ? 2 : 1))
            }
            rows[row + i] = d
        }
    }
}
