import QuarryJSON
import QuarrySearchContract

/// The steps of `searchForFacetValues` around counting. Shared (QuarryText) so that a remote backend
/// (QuarryTypesense) counts the values its own way, then validates, matches and answers exactly as
/// the engine does.
package enum FacetValueSearch {
    /// Only `searchable(attribute)` facets can be searched.
    package static func checkSearchable(_ attribute: String, settings: IndexSettings) throws(BackendError) {
        guard settings.attributesForFaceting.contains(where: { $0.attribute == attribute && $0.modifier == .searchable }) else {
            throw .invalidParameter(name: "facetName", expected: "an attribute declared as searchable(\(attribute)) in the index "
                + "setting attributesForFaceting ('\(attribute)' is not)")
        }
    }

    /// The search whose `facets[attribute]` holds every value's count.
    package static func countingParameters(_ parameters: SearchParameters, attribute: String) -> SearchParameters {
        var counting = parameters
        counting.refinements = parameters.refinements.folded(keepingCountsOf: attribute)
        counting.hitsPerPage = 0
        counting.page = 0
        counting.refinements.facets = [attribute]
        counting.refinements.maxValuesPerFacet = Int.max
        counting.refinements.sortFacetValuesByAlpha = false
        // Only counts are wanted: nothing that merely orders hits.
        counting.distinct = 0
        counting.refinements.optionalFilters = []
        counting.refinements.relevancyStrictness = 0
        return counting
    }

    /// The counted values matching `facetQuery`, best counts first.
    package static func facetHits(counts: [FacetCounts.Value], facetQuery: String, maxFacetHits: Int, parameters: SearchParameters)
        -> [FacetValuesResponse.Hit]
    {
        var query = parameters
        query.query = facetQuery
        query.queryType = .prefixLast
        let words = QueryWords.parse(query)
        var matcher = TextMatcher(words: words)
        var highlighter = Highlighter(words: words, preTag: parameters.highlightPreTag, postTag: parameters.highlightPostTag)
        let all: UInt64 = words.count >= 64 ? .max : (1 << UInt64(words.count)) - 1
        var found: [(value: String, count: Int)] = []
        for entry in counts {
            let (value, n) = (entry.value, entry.count)
            guard n > 0 else { continue }
            if !words.isEmpty {
                let matched = matcher.matches(in: value).reduce(UInt64(0)) { $0 | $1.words }
                guard matched & all == all else { continue }
            }
            found.append((value, n))
        }
        found.sort { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
        var ranges = HitRanges()  // facet hits carry no ranges
        return found.prefix(maxFacetHits).map { entry in
            let highlighted = highlighter.mirror(.string(entry.value), path: "value", ranges: &ranges)?["value"]?.stringValue
            return FacetValuesResponse.Hit(value: entry.value, highlighted: highlighted ?? entry.value, count: entry.count)
        }
    }
}
