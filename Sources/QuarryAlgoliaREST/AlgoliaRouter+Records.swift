import QuarryJSON

extension AlgoliaRouter {
    func batch(_ index: String, body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let calls = try BatchAction.calls(bodyObject(body).objects("requests"), index: index)
        let stamp = self.stamp
        return .all(calls) { results in
            .ok(["taskID": JSON(stamp().taskID), "objectIDs": BatchAction.objectIDs(results)])
        }
    }

    /// `POST /1/indexes/*/batch`: `taskID` is an object, one task per index written.
    func multipleBatch(_ body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let calls = try BatchAction.calls(bodyObject(body).objects("requests"), index: nil)
        let stamp = self.stamp
        return .all(calls) { results in
            let taskID = JSON(stamp().taskID)
            var tasks: JSONObject = [:]
            for call in calls { if let index = call.params["index"]?.stringValue { tasks[index] = taskID } }
            return .ok(["taskID": .object(tasks), "objectIDs": BatchAction.objectIDs(results)])
        }
    }

    /// `POST /1/indexes/{index}`: a record whose `objectID`, if absent, is generated.
    func addObject(_ index: String, _ body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let record = try bodyObject(body)
        let stamp = self.stamp
        return .one(RPCCall("saveObjects", ["index": .string(index), "objects": [.object(record)]])) { result in
            let now = stamp()
            return .ok(["createdAt": .string(now.time), "taskID": JSON(now.taskID),
                        "objectID": result["objectIDs"]?.arrayValue?.first ?? .null])
        }
    }

    func putObject(_ index: String, _ objectID: String, _ body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        var record = try bodyObject(body)
        record["objectID"] = .string(objectID)
        return .one(RPCCall("saveObjects", ["index": .string(index), "objects": [.object(record)]])) { _ in
            self.updated(objectID: objectID)
        }
    }

    func partialUpdate(_ index: String, _ objectID: String, _ body: JSON?, create: Bool) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        var attributes = try bodyObject(body)
        attributes["objectID"] = .string(objectID)
        let call = RPCCall("partialUpdateObjects", [
            "index": .string(index), "objects": [.object(attributes)], "createIfNotExists": .bool(create),
        ])
        return .one(call) { _ in self.updated(objectID: objectID) }
    }

    func deleteObject(_ index: String, _ objectID: String) -> AlgoliaPlan {
        let stamp = self.stamp
        return .one(RPCCall("deleteObjects", ["index": .string(index), "objectIDs": [.string(objectID)]])) { _ in
            let now = stamp()
            return .ok(["deletedAt": .string(now.time), "taskID": JSON(now.taskID)])
        }
    }

    func getObject(_ index: String, _ objectID: String, attributes: String?) -> AlgoliaPlan {
        var params: JSONObject = ["index": .string(index), "objectIDs": [.string(objectID)]]
        if let attributes {
            params["attributesToRetrieve"] = SearchParamsReader.value(of: "attributesToRetrieve", attributes)
        }
        return .one(RPCCall("getObjects", params)) { result in
            guard let record = result["results"]?.arrayValue?.first, !record.isNull else {
                return .error(404, "ObjectID does not exist")
            }
            return .ok(record)
        }
    }

    /// `POST /1/indexes/*/objects`: one `getObjects` per request, the records in the order asked.
    func getObjects(_ body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let requests = try bodyObject(body).objects("requests")
        var calls: [RPCCall] = []
        for (position, request) in requests.enumerated() {
            guard let index = request["indexName"]?.stringValue,
                  let objectID = request["objectID"].flatMap(BatchAction.objectID) else {
                throw AlgoliaBadRequest(message: "requests[\(position)] must have a string indexName and objectID")
            }
            var params: JSONObject = ["index": .string(index), "objectIDs": [.string(objectID)]]
            if let attributes = request["attributesToRetrieve"] { params["attributesToRetrieve"] = attributes }
            calls.append(RPCCall("getObjects", params))
        }
        return .all(calls) { results in
            .ok(["results": .array(results.map { $0["results"]?.arrayValue?.first ?? .null })])
        }
    }

    func clear(_ index: String) -> AlgoliaPlan {
        .one(RPCCall("clearObjects", ["index": .string(index)])) { _ in self.updated(objectID: nil) }
    }

    func updated(objectID: String?) -> AlgoliaResponse {
        let now = stamp()
        var body: JSONObject = ["updatedAt": .string(now.time), "taskID": JSON(now.taskID)]
        if let objectID { body["objectID"] = .string(objectID) }
        return .ok(.object(body))
    }
}
