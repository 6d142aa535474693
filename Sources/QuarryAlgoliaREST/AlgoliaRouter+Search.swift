import QuarryJSON

extension AlgoliaRouter {
    /// The server's result as it is: hits keep Quarry's `_matchRanges` (REST-10).
    func search(_ index: String, body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        var params = try SearchParamsReader.merged(body)
        params["index"] = .string(index)
        return .forward(RPCCall("search", params))
    }

    /// `POST /1/indexes/*/queries`: hits and facet-values requests in one; `stopIfEnoughMatches` blanks
    /// the results after the first that fills its page, as Algolia returns them unprocessed.
    func multipleQueries(_ body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let object = try bodyObject(body)
        let requests = try object.objects("requests")
        let strategy = object["strategy"]?.stringValue ?? "none"
        guard strategy == "none" || strategy == "stopIfEnoughMatches" else {
            throw AlgoliaBadRequest(message: "strategy must be \"none\" or \"stopIfEnoughMatches\", not \(strategy)")
        }
        var calls: [RPCCall] = []
        var indices: [String] = []
        for (position, request) in requests.enumerated() {
            guard let index = request["indexName"]?.stringValue else {
                throw AlgoliaBadRequest(message: "requests[\(position)].indexName must be a string")
            }
            indices.append(index)
            var params = try SearchParamsReader.merged(.object(request), dropping: ["indexName", "type", "facet"])
            params["index"] = .string(index)
            switch request["type"]?.stringValue ?? "default" {
            case "default":
                calls.append(RPCCall("search", params))
            case "facet":
                guard let facet = request["facet"]?.stringValue else {
                    throw AlgoliaBadRequest(message: "requests[\(position)].facet must name the attribute of a facet request")
                }
                params["facetName"] = .string(facet)
                calls.append(RPCCall("searchForFacetValues", params))
            case let other:
                throw AlgoliaBadRequest(message: "requests[\(position)].type must be \"default\" or \"facet\", not \(other)")
            }
        }
        let kinds = calls.map(\.method)
        let names = indices
        return .all(calls) { results in
            var enough = false
            var answers: [JSON] = []
            for (position, result) in results.enumerated() {
                guard kinds[position] == "search" else { answers.append(result); continue }
                var shaped = Self.searchResult(result, index: names[position])
                if enough, case .object(var blank) = shaped {
                    blank["hits"] = []
                    blank["nbHits"] = 0
                    blank["nbPages"] = 0
                    blank["processed"] = false
                    blank.removeValue(forKey: "facets")
                    shaped = .object(blank)
                }
                if strategy == "stopIfEnoughMatches", let hits = result["nbHits"]?.intValue,
                   let perPage = result["hitsPerPage"]?.intValue, hits >= perPage {
                    enough = true
                }
                answers.append(shaped)
            }
            return .ok(["results": .array(answers)])
        }
    }

    func searchForFacetValues(_ index: String, facet: String, body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        var params = try SearchParamsReader.merged(body)
        params["index"] = .string(index)
        params["facetName"] = .string(facet)
        return .one(RPCCall("searchForFacetValues", params)) { .ok($0) }
    }

    /// A browse page. A cursor carries the first page's parameters, which the official clients send
    /// again with it; they are dropped rather than refused (protocol/algolia-rest.md, REST-3).
    func browse(_ index: String, body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        var params = try SearchParamsReader.merged(body)
        if let cursor = params["cursor"], !cursor.isNull {
            params = params.filter { $0.key == "cursor" || $0.key == "hitsPerPage" || $0.key == "attributesToRetrieve" }
        } else {
            params.removeValue(forKey: "cursor")
        }
        params["index"] = .string(index)
        return .one(RPCCall("browse", params)) { result in
            guard case .object(var page) = result else { return .ok(result) }
            let count = page["hits"]?.arrayValue?.count ?? 0
            page["hitsPerPage"] = JSON(count)
            page["processingTimeMS"] = 0
            return .ok(.object(page))
        }
    }

    /// Algolia's hit fields only: `_matchRanges` is Quarry's, for editors; `index` names the results of a multi-query.
    static func searchResult(_ result: JSON, index: String) -> JSON {
        guard case .object(var response) = result else { return result }
        if let hits = response["hits"]?.arrayValue {
            response["hits"] = .array(hits.map { hit in
                guard case .object(var fields) = hit, fields["_matchRanges"] != nil else { return hit }
                fields.removeValue(forKey: "_matchRanges")
                return .object(fields)
            })
        }
        if response["index"] == nil { response["index"] = .string(index) }
        return .object(response)
    }
}
