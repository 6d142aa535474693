/// How many facet values to ask Typesense for, and whether its top values answer as the engine would.
///
/// Typesense returns the values with the highest counts, exactly counted, ties at its cut in no
/// defined order (measured on 0.24.1: the counts of a top-K answer equal those of a full fetch).
/// The engine lists `maxValuesPerFacet` values by count, ties by text. Let c be the count at the
/// engine's cut: when the lowest count Typesense returned is below c, every value counted c or more
/// was returned, so sorting those gives the engine's list exactly. Otherwise a tie spans Typesense's
/// cut and every value must be fetched.
///
/// An answer also falls short when it leaves out a selected value: the engine lists it with 0 only
/// if it matched nothing. (`facets_stats` read every value: `SearchTranslation` asks for them all.)
enum FacetCut {
    /// `max_facet_values` asking for every value: more than any attribute holds.
    static let all = 1_000_000

    /// Values asked beyond the engine's cut, so that a tie at the cut rarely spans Typesense's. A
    /// value costs Typesense a few microseconds; a second fetch costs a whole search.
    static func margin(_ limit: Int) -> Int { max(2 * limit, 50) }

    /// `max_facet_values` for a search listing `limit` values per attribute, or `all`. `estimate`: the
    /// answer is a fast one whose counts the exact completion replaces anyway, so no margin is asked.
    static func asked(limit: Int, needsAll: Bool, estimate: Bool = false) -> Int {
        guard !needsAll, limit < all / 4 else { return all }
        return estimate ? limit : limit + margin(limit)
    }

    /// Whether `counts`, Typesense's answer to `max_facet_values: asked` (count descending), hold
    /// what the engine's list of `limit` values and its selected zeros need.
    /// `totalValues`: the field's `stats.total_values`, how many values matched in all.
    static func suffices(_ counts: [(String, Int)], asked: Int, totalValues: Int?, limit: Int, selected: [String]) -> Bool {
        if counts.count < asked || (totalValues.map { $0 <= counts.count } ?? false) { return true }
        if !selected.isEmpty {
            let folded = Set(counts.filter { $0.1 > 0 }.map { $0.0.lowercased() })
            if selected.contains(where: { !folded.contains($0.lowercased()) }) { return false }
        }
        guard limit > 0 else { return true }
        let sorted = counts.map(\.1).sorted(by: >)
        guard limit < sorted.count, let lowest = sorted.last else { return false }
        return lowest < sorted[limit - 1]
    }
}
