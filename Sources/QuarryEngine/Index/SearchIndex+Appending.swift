/// Adding a segment built elsewhere to an index: what an import into a non-empty index needs. It uses
/// nothing but `SearchIndex`'s own members and `updating`.
extension SearchIndex {
    /// This index with the documents of `built` added after its own, and each of its own whose docID is
    /// in `replaced` marked deleted: what `updating(upserts:deletions:)` makes of the same records (the
    /// same segments and merges), without holding the records in memory. `built` must have been built
    /// with this index's settings, and `replaced` must hold every docID of `built` that this index holds.
    func appending(_ built: SearchIndex, replacing replaced: Set<DocID>) -> SearchIndex {
        var dead = self.dead
        for id in replaced {
            for (s, segment) in segments.enumerated() {
                if let ordinal = segment.ordinal(of: id) { dead[s].insert(ordinal) }
            }
        }
        // A write's merge still running is carried: its parts keep their places, before the new segments.
        let appended = SearchIndex(settings: settings, layout: layout, order: order, segments: segments + built.segments,
                                   dead: dead + built.dead, pending: pending)
        // An empty update appends nothing and runs the merge policy, as a write of these records would.
        return appended.updating(upserts: [], deletions: [])
    }
}
