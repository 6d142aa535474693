extension SearchQuery {
    /// Whether the query narrows the records at all: words, a filter, or a geo area or centre.
    /// `deleteBy` refuses a query that does not, so that a forgotten filter deletes nothing.
    public var selectsRecords: Bool {
        !query.isEmpty || !filter.isEmpty || geo != nil
    }

    /// Whether every record matches: no words and nothing that filters (ranking aside), so that a
    /// browse can read the store alone.
    public var matchesEverything: Bool {
        query.allSatisfy { $0 == " " } && filter.isEmpty && disjunctive.isEmpty && hierarchical.allSatisfy(\.path.isEmpty)
            && geo == nil
    }
}
