import QuarryJSON
import QuarrySearchContract

/// The engine's `facets` and `facets_stats` from every value's count (`FacetResponse`): count
/// descending then text ascending (or text only with `sortFacetValuesBy: alpha`), at most
/// `maxValuesPerFacet`, then each selected value of the attribute's or-group that matched
/// nothing, with 0; stats over the values that spell a number (asked for only where some record
/// holds a JSON number, as the engine's stats read only those).
enum FacetAssembly {
    static func values(_ counts: [(String, Int)], limit: Int, alpha: Bool, selected: [String]) -> [(String, Int)] {
        var values: [(String, Int)] = []
        if limit > 0 {
            values = counts.filter { $0.1 > 0 }.sorted { a, b in
                if !alpha && a.1 != b.1 { return a.1 > b.1 }
                return a.0 < b.0
            }.prefix(limit).map { $0 }
        }
        guard !selected.isEmpty else { return values }
        let folded = Set(counts.filter { $0.1 > 0 }.map { $0.0.lowercased() })
        for value in selected where !folded.contains(value.lowercased()) && !values.contains(where: { $0.0 == value }) {
            values.append((value, 0))
        }
        return values
    }

    /// `{min, max, avg, sum}` over the counted numeric values, nil when none is numeric.
    static func stats(_ counts: [(String, Int)], of attribute: String) -> FacetStats? {
        var n = 0, low = Double.infinity, high = -Double.infinity, sum = 0.0
        for (value, count) in counts where count > 0 {
            guard let number = number(value) else { continue }
            n += count
            low = min(low, number)
            high = max(high, number)
            sum += number * Double(count)
        }
        guard n > 0 else { return nil }
        return FacetStats(attribute: attribute, min: low, max: high, avg: sum / Double(n), sum: sum)
    }

    /// The engine's `FacetColumn.number`: plain decimal notation only.
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B })
        else { return nil }
        guard let d = Double(text), d.isFinite else { return nil }
        return d
    }
}
