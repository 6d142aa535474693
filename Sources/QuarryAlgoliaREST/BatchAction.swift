import QuarryJSON

/// One operation of Algolia's `batch`, and how runs of the same operation on one index become one call.
enum BatchAction: String {
    case addObject, updateObject, partialUpdateObject, partialUpdateObjectNoCreate, deleteObject, delete, clear

    /// Consecutive operations of one kind on one index share a call, so a batch of 1,000 `addObject`
    /// is one transaction; the calls run in the batch's order.
    static func calls(_ requests: [JSONObject], index fixed: String?) throws(AlgoliaBadRequest) -> [RPCCall] {
        var calls: [RPCCall] = []
        var lastKey: (String, String)?
        for (position, request) in requests.enumerated() {
            guard let name = request["action"]?.stringValue, let action = BatchAction(rawValue: name) else {
                let given = request["action"].map { JSONWriter.string($0) } ?? "nothing"
                throw AlgoliaBadRequest(message: "requests[\(position)].action must be one of addObject, updateObject, "
                    + "partialUpdateObject, partialUpdateObjectNoCreate, deleteObject, delete, clear; got \(given)")
            }
            guard let index = fixed ?? request["indexName"]?.stringValue else {
                throw AlgoliaBadRequest(message: "requests[\(position)].indexName must be a string")
            }
            let body = request["body"]?.objectValue
            if action != .delete && action != .clear && body == nil {
                throw AlgoliaBadRequest(message: "requests[\(position)].body must be an object")
            }
            let key = (index, action.method)
            if let lastKey, lastKey == key, action.groups, let record = body {
                calls[calls.count - 1].append(action.element(record))
                continue
            }
            lastKey = key
            switch action {
            case .delete: calls.append(RPCCall("deleteIndex", ["index": .string(index)]))
            case .clear: calls.append(RPCCall("clearObjects", ["index": .string(index)]))
            case .deleteObject:
                guard let objectID = body?["objectID"].flatMap(Self.objectID) else {
                    throw AlgoliaBadRequest(message: "requests[\(position)].body.objectID must be a string")
                }
                calls.append(RPCCall("deleteObjects", ["index": .string(index), "objectIDs": [.string(objectID)]]))
            case .addObject, .updateObject:
                calls.append(RPCCall("saveObjects", ["index": .string(index), "objects": [.object(body ?? [:])]]))
            case .partialUpdateObject, .partialUpdateObjectNoCreate:
                calls.append(RPCCall("partialUpdateObjects", [
                    "index": .string(index), "objects": [.object(body ?? [:])],
                    "createIfNotExists": .bool(action == .partialUpdateObject),
                ]))
            }
        }
        return calls
    }

    /// The JSON-RPC method; `addObject` and `updateObject` share `saveObjects`.
    var method: String {
        switch self {
        case .addObject, .updateObject: "saveObjects"
        case .partialUpdateObject: "partialUpdateObjects"
        case .partialUpdateObjectNoCreate: "partialUpdateObjectsNoCreate"
        case .deleteObject: "deleteObjects"
        case .delete: "deleteIndex"
        case .clear: "clearObjects"
        }
    }

    var groups: Bool { self != .delete && self != .clear }

    func element(_ body: JSONObject) -> JSON {
        switch self {
        case .deleteObject: body["objectID"].flatMap(Self.objectID).map(JSON.string) ?? .null
        default: .object(body)
        }
    }

    static func objectID(_ value: JSON) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
    }

    /// The `objectIDs` of each call's result, in the batch's order (deleteIndex and clear have none).
    static func objectIDs(_ results: [JSON]) -> JSON {
        .array(results.flatMap { $0["objectIDs"]?.arrayValue ?? [] })
    }
}

extension RPCCall {
    /// Adds one more record (or id) to a grouped write.
    mutating func append(_ element: JSON) {
        guard case .object(var object) = params else { return }
        let member = method == "deleteObjects" ? "objectIDs" : "objects"
        if case .array(var list)? = object[member] {
            list.append(element)
            object[member] = .array(list)
        }
        params = .object(object)
    }
}
