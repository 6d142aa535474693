import QuarryJSON
import QuarryRecords
import QuarrySearchContract

/// Which record values does a segment keep for filtering, faceting, distinct and geo?
///
/// Text facet columns: every `attributesForFaceting` entry, `attributeForDistinct`, and `_tags`
/// (tag filters need no declaration). Numeric columns are discovered from the records themselves
/// (numeric filters need no declaration either), up to `maxNumericPaths` paths per segment, each
/// read by `FacetValues` (QuarryRecords).
struct FacetLayout: Sendable, Equatable {
    /// Attribute paths with a text column, in settings order, unique.
    let attributes: [String]
    static let maxNumericPaths = 256

    init(settings: IndexSettings) {
        var names: [String] = []
        for facet in settings.attributesForFaceting where !names.contains(facet.attribute) { names.append(facet.attribute) }
        if let distinct = settings.attributeForDistinct, !distinct.isEmpty, !names.contains(distinct) { names.append(distinct) }
        if !names.contains(FacetValues.tagsAttribute) { names.append(FacetValues.tagsAttribute) }
        attributes = names
    }

    init(attributes: [String]) { self.attributes = attributes }
}
