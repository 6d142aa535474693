import QuarryJSON

/// `searchForFacetValues` {index, facetName (or attribute), facetQuery?, …search parameters}: the
/// values of one `searchable()` facet matching `facetQuery`, each with its count under the optional
/// query and filters. Parameters other than `index` and the attribute go to the engine.
public struct SearchForFacetValuesRequest: RequestType {
    public static let method = "searchForFacetValues"
    public typealias Response = JSONResponse
    public var index: String
    public var attribute: String
    public var parameters: JSONObject

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        if let name = try params.optionalString("facetName") {
            attribute = name
        } else if let name = try params.optionalString("attribute") {
            attribute = name
        } else {
            throw params.fail("facetName", expected: "a string (the facet attribute)", got: nil)
        }
        if let query = params.object["facetQuery"], query.stringValue == nil, !query.isNull {
            throw params.fail("facetQuery", expected: "a string", got: query)
        }
        parameters = params.remaining(excluding: ["index", "facetName", "attribute"])
    }
}

extension SearchForFacetValuesRequest: IndexScoped {}
