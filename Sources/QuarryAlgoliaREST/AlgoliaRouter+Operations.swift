import QuarryJSON

extension AlgoliaRouter {
    /// `POST /1/indexes/{index}/operation`: copy or move, which `replace_all_objects` uses. The body's
    /// members go to `operationIndex` as they are, so a missing or bad one is its 400 naming the member.
    func operation(_ index: String, body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let object = try bodyObject(body)
        var params: JSONObject = ["index": .string(index)]
        for name in ["operation", "destination", "scope"] { params[name] = object[name] }
        return .one(RPCCall("operationIndex", params)) { _ in self.updated(objectID: nil) }
    }

    /// `POST /1/indexes/{index}/deleteByQuery`: the body's filters (or a `params` string) select the records.
    func deleteByQuery(_ index: String, body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        var params = try SearchParamsReader.merged(body)
        params["index"] = .string(index)
        return .one(RPCCall("deleteBy", params)) { _ in self.updated(objectID: nil) }
    }
}
