import QuarryJSON

extension TypesenseAPI {
    /// `PUT /aliases/{name}`: create the alias or point it at `collection`. Idempotent.
    public func upsertAlias(_ name: String, collection: String) throws(TypesenseError) {
        _ = try cluster.send(TypesenseRequest(.put, TypesenseRequest.path("aliases", name),
                                              body: Self.body(["collection_name": .string(collection)]),
                                              kind: .idempotentWrite))
    }

    /// The collection `name` points at; nil when there is no such alias.
    public func alias(_ name: String) throws(TypesenseError) -> String? {
        guard let alias = try objectIfFound(TypesenseRequest(.get, TypesenseRequest.path("aliases", name), kind: .read))
        else { return nil }
        guard let collection = alias["collection_name"]?.stringValue else {
            throw .invalidResponse("alias \(name): no collection_name")
        }
        return collection
    }

    /// Every alias and its collection, in Typesense's order.
    public func aliases() throws(TypesenseError) -> [(name: String, collection: String)] {
        let json = try object(TypesenseRequest(.get, "/aliases", kind: .read))
        return (json["aliases"]?.arrayValue ?? []).compactMap { alias in
            guard let name = alias["name"]?.stringValue, let collection = alias["collection_name"]?.stringValue else { return nil }
            return (name, collection)
        }
    }

    /// `DELETE /aliases/{name}`. Idempotent; false when there was none.
    @discardableResult
    public func deleteAlias(_ name: String) throws(TypesenseError) -> Bool {
        try existed(TypesenseRequest(.delete, TypesenseRequest.path("aliases", name), kind: .idempotentWrite))
    }
}
