import QuarryJSON

/// `browse` {index, query?, filters…?, attributesToRetrieve?, hitsPerPage?,
/// cursor?}: every matching record, a page at a time, not capped by
/// `paginationLimitedTo`. With a cursor, the query and filters come from it.
public struct BrowseRequest: RequestType {
    public static let method = "browse"
    public typealias Response = JSONResponse
    public static let maxHitsPerPage = 1000
    public var index: String
    public var cursor: String?
    /// nil: the cursor's, or 1,000 on a first page.
    public var hitsPerPage: Int?
    public var attributesToRetrieve: [String]?
    /// The query and filtering parameters, as `search` takes them.
    public var parameters: JSONObject

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        cursor = try params.optionalString("cursor")
        hitsPerPage = try params.optionalInt("hitsPerPage", in: 1...Self.maxHitsPerPage)
        attributesToRetrieve = try params.optionalStrings("attributesToRetrieve")
        try params.checkQuery()
        parameters = params.remaining(excluding: ["index", "cursor", "hitsPerPage", "attributesToRetrieve"])
    }
}
