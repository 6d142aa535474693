/// Serving a saved file's segments while writes keep coming.
///
/// A save writes one snapshot; under a stream of batches the view has moved on by the time the file is read
/// back (new segments appended, documents of saved ones deleted, the newest folded). Swapping in the read-back
/// index only when nothing moved left a streamed index on the heap until the stream stopped (1M records by
/// batches of 1,000: 0 bytes mapped, 550 MiB of heap; Benchmarks/RESULTS.md). `adopting` carries the saved
/// segments over to the newest snapshot instead, as `rebasing` carries a merge over.
extension SearchIndex {
    /// This index with each of `base`'s segments it still holds replaced by the same segment of `saved`
    /// (`base` written to a file and read back): same documents in the same order, arrays read in place
    /// from the file. Deletions made since `base` stay marked. Nil when none of `base`'s segments is left.
    func adopting(_ saved: SearchIndex, savedFrom base: SearchIndex) -> SearchIndex? {
        guard settings == base.settings, saved.segments.count == base.segments.count else { return nil }
        var savedByIdentity: [ObjectIdentifier: Segment] = [:]
        for (segment, read) in zip(base.segments, saved.segments) where segment.count == read.count {
            savedByIdentity[segment.identity] = read
        }
        var adopted = false
        let segments = self.segments.map { segment in
            guard let read = savedByIdentity[segment.identity] else { return segment }
            adopted = true
            return read
        }
        guard adopted else { return nil }
        // The same documents at the same positions, so a write's merge still running still applies.
        return SearchIndex(settings: settings, layout: layout, order: order, segments: segments, dead: dead, pending: pending)
    }
}
