import QuarryJSON

/// Reads one Algolia REST request into the JSON-RPC calls the server already answers (protocol/algolia-rest.md).
/// Pure: the HTTP edge sends the calls and hands their outcomes back to the plan.
public struct AlgoliaRouter: Sendable {
    /// The next write's task id and time.
    let stamp: @Sendable () -> WriteStamp

    public init(stamp: @escaping @Sendable () -> WriteStamp) {
        self.stamp = stamp
    }

    public func plan(_ request: AlgoliaRequest) -> AlgoliaPlan {
        do throws(AlgoliaBadRequest) {
            return try route(request)
        } catch {
            return .respond(.error(400, error.message))
        }
    }

    private func route(_ request: AlgoliaRequest) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let s = request.segments
        switch (request.method, s.count, s.first) {
        case (_, _, "keys"): return .respond(.unsupported("API key management"))
        case (_, _, "dictionaries"): return .respond(.unsupported("Dictionaries"))
        case (_, _, "clusters"): return .respond(.unsupported("Multi-cluster management"))
        case (_, _, "security"): return .respond(.unsupported("Source IP restrictions"))
        case (_, _, "logs"): return .respond(.unsupported("Logs"))
        case (.get, 2, "task"): return published()
        case (.get, 1, "indexes"): return listIndices()
        default: break
        }
        guard s.first == "indexes", s.count >= 2 else { return .respond(.error(404, "no such endpoint: \(request.method.rawValue) /1/\(s.joined(separator: "/"))")) }
        let index = s[1]
        if index == "*" { return try multiIndex(request) }
        let rest = Array(s.dropFirst(2))
        let (a, b, c) = (rest.count > 0 ? rest[0] : "", rest.count > 1 ? rest[1] : "", rest.count > 2 ? rest[2] : "")
        // GET's parameters are query items, read as a `params` string is (arrays as JSON, …); the key items are not parameters.
        let queryObject = JSON.object(JSONObject(uniqueKeysWithValues: request.query.sorted { $0.key < $1.key }
            .filter { !$0.key.hasPrefix("x-algolia-") }
            .map { ($0.key, SearchParamsReader.value(of: $0.key, $0.value)) }))
        switch (request.method, rest.count, a, c) {
        case (.get, 0, _, _): return try search(index, body: queryObject)
        case (.post, 0, _, _): return try addObject(index, request.body)
        case (.delete, 0, _, _): return deleteIndex(index)
        case (_, _, "rules", _): return .respond(.unsupported("Rules"))
        case (_, _, "synonyms", _): return .respond(.unsupported("Synonyms"))
        case (.post, 1, "deleteByQuery", _): return try deleteByQuery(index, body: request.body)
        case (.post, 1, "operation", _): return try operation(index, body: request.body)
        case (.post, 1, "query", _): return try search(index, body: request.body)
        case (.post, 3, "facets", "query"): return try searchForFacetValues(index, facet: b, body: request.body)
        case (.post, 1, "browse", _): return try browse(index, body: request.body)
        case (.get, 1, "browse", _): return try browse(index, body: queryObject)
        case (.post, 1, "batch", _): return try batch(index, body: request.body)
        case (.post, 1, "clear", _): return clear(index)
        case (.get, 1, "settings", _): return getSettings(index)
        case (.put, 1, "settings", _): return try setSettings(index, body: request.body)
        case (.get, 2, "task", _): return published()
        case (.get, 1, _, _): return getObject(index, a, attributes: request.query["attributesToRetrieve"])
        case (.put, 1, _, _): return try putObject(index, a, request.body)
        case (.delete, 1, _, _): return deleteObject(index, a)
        case (.post, 2, _, _) where b == "partial":
            return try partialUpdate(index, a, request.body, create: request.query["createIfNotExists"] != "false")
        default:
            return .respond(.error(404, "no such endpoint: \(request.method.rawValue) /1/\(s.joined(separator: "/"))"))
        }
    }

    private func multiIndex(_ request: AlgoliaRequest) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let rest = request.segments.dropFirst(2)
        switch (request.method, rest.count, rest.first ?? "") {
        case (.post, 1, "queries"): return try multipleQueries(request.body)
        case (.post, 1, "objects"): return try getObjects(request.body)
        case (.post, 1, "batch"): return try multipleBatch(request.body)
        default:
            return .respond(.error(404, "no such endpoint: \(request.method.rawValue) /1/\(request.segments.joined(separator: "/"))"))
        }
    }

    /// Every write is visible when it is answered, so every task is published.
    private func published() -> AlgoliaPlan {
        .respond(.ok(["status": "published", "pendingTask": false]))
    }
}

extension JSONObject {
    /// The body's member `name` as an array of objects, or a 400 naming it.
    func objects(_ name: String) throws(AlgoliaBadRequest) -> [JSONObject] {
        guard let array = self[name]?.arrayValue else {
            throw AlgoliaBadRequest(message: "\(name) must be an array of objects")
        }
        var objects: [JSONObject] = []
        for (position, element) in array.enumerated() {
            guard let object = element.objectValue else {
                throw AlgoliaBadRequest(message: "\(name)[\(position)] must be an object, not \(element.kindName)")
            }
            objects.append(object)
        }
        return objects
    }
}

/// The body as an object, or a 400.
func bodyObject(_ body: JSON?) throws(AlgoliaBadRequest) -> JSONObject {
    guard let body else { throw AlgoliaBadRequest(message: "this endpoint needs a JSON object body") }
    guard let object = body.objectValue else {
        throw AlgoliaBadRequest(message: "the body must be a JSON object, not \(body.kindName)")
    }
    return object
}
