import QuarryJSON

extension TypesenseAPI {
    /// Above this many bytes of query string a search goes as a one-search `multi_search` POST.
    static let longestSearchQuery = 4000

    /// `GET /collections/{c}/documents/search` with `parameters` as the query string
    /// (values as `URLQuery.text(of:)` renders them). A read.
    public func search(collection: String, parameters: JSONObject) throws(TypesenseError) -> JSONObject {
        let request = TypesenseRequest(.get, TypesenseRequest.path("collections", collection, "documents", "search"),
                                       query: parameters, kind: .read)
        guard request.target.utf8.count <= Self.longestSearchQuery else {
            var search = parameters
            search["collection"] = .string(collection)
            return try multiSearch([search])[0]
        }
        return try object(request)
    }

    /// `POST /multi_search` with `{"searches": […]}` (each names its `collection`)
    /// and `common` as query parameters, which every search inherits. A read.
    /// The results are in the searches' order; the first failed search is thrown.
    public func multiSearch(_ searches: [JSONObject], common: JSONObject? = nil) throws(TypesenseError) -> [JSONObject] {
        let body: JSON = ["searches": .array(searches.map { .object($0) })]
        let json = try object(TypesenseRequest(.post, "/multi_search", query: common, body: Self.body(body), kind: .read))
        guard let results = json["results"]?.arrayValue, results.count == searches.count else {
            throw .invalidResponse("multi_search: expected \(searches.count) results")
        }
        var objects: [JSONObject] = []
        for result in results {
            guard let object = result.objectValue else { throw .invalidResponse("multi_search: a result is not an object") }
            if let code = object["code"]?.intValue, !(200..<300).contains(code) {
                throw .http(status: code, message: object["error"]?.stringValue ?? "search failed")
            }
            objects.append(object)
        }
        return objects
    }

    /// `GET /debug` of any node: `state` (raft) and `version`.
    public func debug() throws(TypesenseError) -> JSONObject {
        try object(TypesenseRequest(.get, "/debug", kind: .read))
    }

    /// `GET /health` of any node: whether it says `ok`. For every node at once, `cluster.health()`.
    public func isHealthy() throws(TypesenseError) -> Bool {
        try object(TypesenseRequest(.get, "/health", kind: .read))["ok"]?.boolValue ?? false
    }
}
