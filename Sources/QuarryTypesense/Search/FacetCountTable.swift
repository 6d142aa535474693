import QuarryJSON

/// A multi_search's facet counts, each field of each result decoded (`FacetText.decode`) once:
/// `FacetRefetch` checks the cut with them and `ResponseAssembly` answers with them.
/// Used by one thread, within one read.
final class FacetCountTable {
    let results: [JSONObject]
    private var decoded: [Int: [String: [(String, Int)]]] = [:]

    init(_ results: [JSONObject]) {
        self.results = results
    }

    /// `(value, count)` of `field` in result `r`, in Typesense's order.
    func counts(_ r: Int, field: String) -> [(String, Int)] {
        if let known = decoded[r]?[field] { return known }
        let counts = ResponseAssembly.facetCounts(results[r], field: field)
        decoded[r, default: [:]][field] = counts
        return counts
    }
}
