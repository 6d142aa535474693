import QuarryText
/// Which terms of a segment's dictionary does one query word match, and with how many typos?
///
/// Without typos: one lookup, or one prefix range. With typos: a depth-first walk of the sorted
/// dictionary as an implicit trie, one `TypoDistance` row per trie level shared by every term below it,
/// pruning a subtree as soon as no term in it can come within the word's typo budget. Nothing is capped:
/// every matching term is returned, so counts stay exact.
struct MatchedTerms: Sendable {
    struct Run: Sendable {
        var terms: Range<Int>
        var typos: Int
    }

    /// Disjoint, ascending by term id.
    var runs: [Run] = []
    /// The term equal to the query word, for the `exact` criterion.
    var exactTerm: Int?

    /// Typos of `term`'s match, or nil when the word does not match it.
    func typos(of term: Int) -> Int? {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if runs[mid].terms.upperBound <= term { lo = mid + 1 } else { hi = mid }
        }
        guard lo < runs.count, runs[lo].terms.contains(term) else { return nil }
        return runs[lo].typos
    }
}

struct TypoMatcher {
    let dictionary: TermDictionary

    func match(_ word: QueryWord) -> MatchedTerms {
        var result = MatchedTerms()
        result.exactTerm = dictionary.find(word.bytes)
        if word.maxTypos == 0 {
            if word.isPrefix {
                let range = dictionary.prefixRange(word.bytes)
                if !range.isEmpty { result.runs = [.init(terms: range, typos: 0)] }
            } else if let exact = result.exactTerm {
                result.runs = [.init(terms: exact..<exact + 1, typos: 0)]
            }
            return result
        }
        var walk = Walk(dictionary: dictionary, query: word.bytes, limit: word.maxTypos, prefix: word.isPrefix)
        walk.descend(depth: 0, range: 0..<dictionary.count, runningMin: walk.rows[word.bytes.count])
        result.runs = walk.runs
        return result
    }

    /// The walk's state: one table row per trie depth, the path's bytes, and the runs found so far.
    private struct Walk {
        let dictionary: TermDictionary
        let query: [UInt8]
        let limit: Int
        let prefix: Bool
        let width: Int
        var rows: [Int]
        var path: [UInt8] = []
        var runs: [MatchedTerms.Run] = []

        init(dictionary: TermDictionary, query: [UInt8], limit: Int, prefix: Bool) {
            self.dictionary = dictionary
            self.query = query
            self.limit = limit
            self.prefix = prefix
            width = query.count + 1
            rows = [Int](repeating: 0, count: width * (query.count + limit + 2))
            for i in 1..<width { rows[i] = i + 1 }
        }

        mutating func add(_ terms: Range<Int>, _ typos: Int) {
            if let last = runs.last, last.typos == typos, last.terms.upperBound == terms.lowerBound {
                runs[runs.count - 1].terms = last.terms.lowerBound..<terms.upperBound
            } else {
                runs.append(.init(terms: terms, typos: typos))
            }
        }

        /// `range`: the terms starting with `path` (length `depth`); row `depth` is filled.
        /// `runningMin`: the best distance of any prefix of `path` (prefix mode).
        mutating func descend(depth: Int, range: Range<Int>, runningMin: Int) {
            var lo = range.lowerBound
            let row = depth * width
            let here = rows[row + width - 1]
            if lo < range.upperBound && dictionary.length(lo) == depth {
                let typos = prefix ? runningMin : here
                if typos <= limit { add(lo..<lo + 1, typos) }
                lo += 1
            }
            guard lo < range.upperBound else { return }
            var rowMin = Int.max
            for i in 0..<width { rowMin = min(rowMin, rows[row + i]) }
            if prefix && runningMin <= limit && rowMin >= runningMin {
                // Going deeper cannot lower the distance: the whole subtree matches as it stands.
                add(lo..<range.upperBound, runningMin)
                return
            }
            if rowMin > limit { return }
            if (depth + 2) * width > rows.count { rows.append(contentsOf: repeatElement(0, count: width)) }
            while lo < range.upperBound {
                let end = dictionary.childEnd(in: lo..<range.upperBound, depth: depth)
                let c = dictionary.byte(lo, at: depth)
                TypoDistance.fillRow(j: depth + 1, query: query, textByte: c, previousTextByte: path.last,
                                     rows: &rows, width: width)
                path.append(c)
                descend(depth: depth + 1, range: lo..<end, runningMin: min(runningMin, rows[(depth + 1) * width + width - 1]))
                path.removeLast()
                lo = end
            }
        }
    }
}
