import QuarryJSON

extension TypesenseAPI {
    /// `POST /collections`. Not idempotent (a second create is a 409): retried only
    /// when the leader certainly did not get it. Returns the collection as created.
    public func createCollection(_ schema: JSONObject) throws(TypesenseError) -> JSONObject {
        try object(TypesenseRequest(.post, "/collections", body: Self.body(.object(schema)), kind: .write))
    }

    /// `GET /collections/{name}` (an alias name resolves to its collection); nil when there is none.
    public func collection(_ name: String) throws(TypesenseError) -> JSONObject? {
        try objectIfFound(TypesenseRequest(.get, TypesenseRequest.path("collections", name), kind: .read))
    }

    /// `GET /collections`: every collection's schema and document count.
    public func collections() throws(TypesenseError) -> [JSONObject] {
        let json = try cluster.sendJSON(TypesenseRequest(.get, "/collections", kind: .read))
        guard let array = json.arrayValue else { throw .invalidResponse("/collections: expected an array") }
        return array.compactMap(\.objectValue)
    }

    /// `DELETE /collections/{name}`. Idempotent; false when there was none
    /// (also when a retry follows a delete whose answer was lost).
    @discardableResult
    public func deleteCollection(_ name: String) throws(TypesenseError) -> Bool {
        try existed(TypesenseRequest(.delete, TypesenseRequest.path("collections", name), kind: .idempotentWrite))
    }

    /// `PATCH /collections/{name}` with `{"fields": […]}` (add fields; `{"name": f, "drop": true}` drops one).
    /// Not idempotent: adding a field twice is a 400.
    @discardableResult
    public func updateCollectionFields(_ name: String, fields: [JSON]) throws(TypesenseError) -> JSONObject {
        try object(TypesenseRequest(.patch, TypesenseRequest.path("collections", name),
                                    body: Self.body(["fields": .array(fields)]), kind: .write))
    }
}
