import QuarryJSON

/// What `searchForFacetValues` answers: the matching values, best counts first, each with its
/// count and highlighted text.
public struct FacetValuesResponse: Sendable, Equatable {
    public struct Hit: Sendable, Equatable {
        public var value: String
        public var highlighted: String
        public var count: Int

        public init(value: String, highlighted: String, count: Int) {
            self.value = value
            self.highlighted = highlighted
            self.count = count
        }
    }

    public var facetHits: [Hit]
    public var exhaustiveFacetsCount = true
    public var processingTimeMS: Int

    public init(facetHits: [Hit], processingTimeMS: Int) {
        self.facetHits = facetHits
        self.processingTimeMS = processingTimeMS
    }

    /// `{facetHits: [{value, highlighted, count}], exhaustiveFacetsCount, processingTimeMS}`.
    public var json: JSONObject {
        ["facetHits": .array(facetHits.map { ["value": .string($0.value), "highlighted": .string($0.highlighted), "count": JSON($0.count)] }),
         "exhaustiveFacetsCount": .bool(exhaustiveFacetsCount), "processingTimeMS": JSON(processingTimeMS)]
    }
}
