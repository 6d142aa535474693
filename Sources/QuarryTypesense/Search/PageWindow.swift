/// Which Typesense pages hold the hits of the requested page?
///
/// The engine returns hits `[page × hitsPerPage, +hitsPerPage)`, cut at `paginationLimitedTo`.
/// Typesense 0.24 pages by `page`/`per_page` only (it ignores `offset`/`limit`) and refuses
/// `per_page` over 250, so a larger page is stitched from consecutive 250-hit pages and sliced.
struct PageWindow: Sendable, Equatable {
    static let maxPerPage = 250
    /// First and past-the-last hit of the answer (after distinct), in ranked order.
    let start: Int
    let end: Int
    /// Typesense's page size and pages (1-based); empty when no hit is wanted.
    let perPage: Int
    let pages: [Int]

    /// `grouped`: hits come in distinct groups. Those are fetched from the first one, twice as many
    /// as hits are wanted: a group may hold several hits, and Typesense 0.24 returns fewer groups
    /// than `per_page` when some records lack the attribute (measured: `q=*`, 3 groups, per_page 3
    /// gives 2; per_page 4 gives 3).
    init(page: Int, hitsPerPage: Int, paginationLimitedTo: Int, grouped: Bool = false) {
        // Saturating, as the engine: a huge `page` means past the end, not an overflow trap.
        let (product, overflow) = page.multipliedReportingOverflow(by: hitsPerPage)
        let start = overflow ? Int.max : product
        let end = min(start > Int.max - hitsPerPage ? Int.max : start + hitsPerPage, paginationLimitedTo)
        self.start = start
        self.end = end
        guard start < end else {
            perPage = 0
            pages = []
            return
        }
        let from = grouped ? 0 : start
        let size = grouped ? min(end > Int.max / 2 ? Int.max : 2 * end, Self.maxPerPage)
            : (hitsPerPage <= Self.maxPerPage ? hitsPerPage : Self.maxPerPage)
        perPage = size
        pages = Array(from / size + 1...(end - 1) / size + 1)
    }

    /// The index of the first hit the fetched pages hold.
    var firstFetched: Int { pages.first.map { ($0 - 1) * perPage } ?? 0 }
}
