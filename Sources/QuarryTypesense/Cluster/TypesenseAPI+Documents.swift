import QuarryJSON

extension TypesenseAPI {
    /// `GET /collections/{c}/documents/{id}`; nil when there is no such document (or collection).
    public func document(_ id: String, collection: String) throws(TypesenseError) -> JSONObject? {
        try objectIfFound(TypesenseRequest(.get, TypesenseRequest.path("collections", collection, "documents", id), kind: .read))
    }

    /// `PATCH /collections/{c}/documents/{id}`: sets the given fields. Idempotent.
    @discardableResult
    public func updateDocument(_ id: String, fields: JSONObject, collection: String) throws(TypesenseError) -> JSONObject {
        try object(TypesenseRequest(.patch, TypesenseRequest.path("collections", collection, "documents", id),
                                    body: Self.body(.object(fields)), kind: .idempotentWrite))
    }

    /// `DELETE /collections/{c}/documents/{id}`. Idempotent; false when there was none.
    @discardableResult
    public func deleteDocument(_ id: String, collection: String) throws(TypesenseError) -> Bool {
        try existed(TypesenseRequest(.delete, TypesenseRequest.path("collections", collection, "documents", id),
                                     kind: .idempotentWrite))
    }

    /// `DELETE /collections/{c}/documents?filter_by=…`: how many were deleted. Idempotent.
    @discardableResult
    public func deleteDocuments(filterBy: String, collection: String, batchSize: Int? = nil) throws(TypesenseError) -> Int {
        var query: JSONObject = ["filter_by": .string(filterBy)]
        if let batchSize { query["batch_size"] = JSON(batchSize) }
        let json = try object(TypesenseRequest(.delete, TypesenseRequest.path("collections", collection, "documents"),
                                               query: query, kind: .idempotentWrite))
        return json["num_deleted"]?.intValue ?? 0
    }

    /// `GET /collections/{c}/documents/export`: the documents, one per JSONL line.
    /// Empty `includeFields`/`excludeFields` mean all fields.
    public func exportDocuments(collection: String, filterBy: String? = nil, includeFields: [String] = [],
                                excludeFields: [String] = []) throws(TypesenseError) -> [JSONObject] {
        let body = try exportJSONL(collection: collection, filterBy: filterBy, includeFields: includeFields,
                                   excludeFields: excludeFields)
        var documents: [JSONObject] = []
        for line in JSONLines.split(body) {
            guard let document = (try? JSONParser.parse(line))?.objectValue else {
                throw .invalidResponse("export of \(collection): a line is not a JSON object")
            }
            documents.append(document)
        }
        return documents
    }

    /// `exportDocuments` as the JSONL body Typesense sent, for callers that parse one line at a time.
    public func exportJSONL(collection: String, filterBy: String? = nil, includeFields: [String] = [],
                            excludeFields: [String] = []) throws(TypesenseError) -> [UInt8] {
        var query = JSONObject()
        if let filterBy { query["filter_by"] = .string(filterBy) }
        if !includeFields.isEmpty { query["include_fields"] = .string(includeFields.joined(separator: ",")) }
        if !excludeFields.isEmpty { query["exclude_fields"] = .string(excludeFields.joined(separator: ",")) }
        return try cluster.send(TypesenseRequest(
            .get, TypesenseRequest.path("collections", collection, "documents", "export"), query: query, kind: .read,
            timeout: max(cluster.options.readTimeout, cluster.options.writeTimeout))).body
    }
}

/// Splitting JSONL bodies (export and import answers).
public enum JSONLines {
    /// The non-empty lines, without their newlines.
    public static func split(_ body: [UInt8]) -> [ArraySlice<UInt8>] {
        body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .filter { !$0.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") } }
    }
}
