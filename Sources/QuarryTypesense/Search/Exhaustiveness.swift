/// Which counts of one answer are exact, as Algolia's `exhaustive` object says it: `nbHits` (and
/// the typo variants it counts, `exhaustive.typo`) and the facet counts.
public struct Exhaustiveness: Sendable, Equatable {
    public var nbHits: Bool
    public var facetsCount: Bool

    public static let exact = Exhaustiveness(nbHits: true, facetsCount: true)
}
