import QuarrySync

/// A segment's facet value ids translated into another segment's, for counts merged across segments
/// (`FacetResponse`): made once for a pair of columns and kept, where each search looked every counted
/// value up by its text, a tenth of a keystroke's time over eight segments (Benchmarks/RESULTS.md,
/// "Facet values translated once per pair of segments").
///
/// Each column holds one (its copies share it) and keeps the translation into the last column asked
/// for: searches merge into the column with the most values, which changes only when segments merge.
/// That column is held weakly, so a translation never keeps a merged-away segment's values alive, and an
/// identity reused by another column never matches a stale one.
final class FacetTranslations: Sendable {
    private struct Latest: Sendable {
        weak var target: FacetTranslations?
        let ids: [Int32]
    }

    private let latest = Locked<Latest?>(nil)

    /// `column`'s value ids in `base`, -1 for a value `base` lacks; `column` is the column holding this.
    func ids(of column: FacetColumn, in base: FacetColumn) -> [Int32] {
        let target = base.translations
        if let ids = latest.withLock({ $0.flatMap { $0.target === target ? $0.ids : nil } }) { return ids }
        let ids = column.values.indices.map { id in
            Int32(base.id(text: column.values[id], hash: column.textHashes[id]) ?? -1)
        }
        latest.withLock { $0 = Latest(target: target, ids: ids) }
        return ids
    }
}
