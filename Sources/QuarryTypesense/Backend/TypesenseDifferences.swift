/// The documented ways a Typesense answer differs from the embedded
/// engine's (protocol/backends.md), reported by `initialize` so a frontend
/// can tell; the end-to-end tier names each expected test difference by one.
enum TypesenseDifferences {
    static let identifiers = [
        "firstLetterTypo", "prefixTypoLength", "secondLetterShift", "typoThenPrefix", "tokenizer", "rankingOrder",
        "customRankingLimit", "relevantSortBuckets", "prefixAll", "typoExceptions", "floatNumbers", "negatedRangeAcrossValues",
        "dynamicAttributeOrder", "browseOrder", "indexSizes", "optionalFilters", "facetStats", "geoShapes", "rankingInfo",
        "candidateLimit",
    ]
}
