import QuarryJSON

/// `importFile` {index, path, format?, settings?, skipInvalid?, workDoneToken?}:
/// streams a JSON array, NDJSON or CSV file into an index in one transaction,
/// reporting `$/progress` (token: `workDoneToken`, else the request id).
public struct ImportFileRequest: RequestType {
    public static let method = "importFile"
    public typealias Response = JSONResponse
    public enum Format: String, Sendable { case json, ndjson, csv }

    public var index: String
    public var path: String
    public var format: Format?
    public var settings: JSONObject?
    public var skipInvalid: Bool
    public var workDoneToken: JSON?

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        path = try params.string("path")
        guard path.hasPrefix("/") else {
            throw .invalidParams("invalid params for 'importFile': 'path' must be an absolute path, got \"\(path)\"", parameter: "path")
        }
        format = try params.oneOf("format", ["json": .json, "ndjson": .ndjson, "csv": .csv])
        settings = try params.optionalObject("settings")
        skipInvalid = try params.optionalBool("skipInvalid") ?? false
        switch params.object["workDoneToken"] {
        case nil, .null?: workDoneToken = nil
        case .string?, .int?: workDoneToken = params.object["workDoneToken"]
        case let other?: throw params.fail("workDoneToken", expected: "an integer or a string", got: other)
        }
    }
}
