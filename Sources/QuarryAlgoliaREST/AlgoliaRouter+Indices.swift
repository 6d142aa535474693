import QuarryJSON

extension AlgoliaRouter {
    func listIndices() -> AlgoliaPlan {
        .one(RPCCall("listIndices", [:])) { result in
            .ok(["items": result["items"] ?? [], "nbPages": 1])
        }
    }

    /// Deleting an index that does not exist succeeds, as in Algolia.
    func deleteIndex(_ index: String) -> AlgoliaPlan {
        let stamp = self.stamp
        return .call([RPCCall("deleteIndex", ["index": .string(index)])]) { outcomes in
            if case .failure(let failure) = outcomes[0], failure.response.status != 404 { return failure.response }
            let now = stamp()
            return .ok(["deletedAt": .string(now.time), "taskID": JSON(now.taskID)])
        }
    }

    func getSettings(_ index: String) -> AlgoliaPlan {
        .one(RPCCall("getSettings", ["index": .string(index)])) { .ok($0) }
    }

    /// `forwardToReplicas` is accepted and has no effect: a replica's settings are its own (REST-5).
    func setSettings(_ index: String, body: JSON?) throws(AlgoliaBadRequest) -> AlgoliaPlan {
        let settings = try bodyObject(body)
        return .one(RPCCall("setSettings", ["index": .string(index), "settings": .object(settings)])) { _ in
            self.updated(objectID: nil)
        }
    }
}
