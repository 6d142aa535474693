/// "Did you mean": the existing name (an index, a session) closest to one that does not exist, so that
/// a typo is answered with the name meant, by the daemon (`data.didYouMean`, protocol/README.md) and by
/// the edges that name things themselves (`quarry mcp`'s sessions).
public enum NameSuggestion {
    /// The name within a few edits of `missing` (a third of its length, at least 1, at most 3), the
    /// closest first and, among equals, the first in byte order; nil when none is that close.
    public static func closest(to missing: String, among names: [String]) -> String? {
        let target = Array(missing.lowercased().unicodeScalars)
        let limit = min(3, max(1, target.count / 3))
        var best: (distance: Int, name: String)?
        for name in names where name != missing {
            let distance = editDistance(target, Array(name.lowercased().unicodeScalars), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, (current.distance, current.name) <= (distance, name) { continue }
            best = (distance, name)
        }
        return best?.name
    }

    /// Levenshtein distance with adjacent transpositions, or `limit + 1` once it is surely larger.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
