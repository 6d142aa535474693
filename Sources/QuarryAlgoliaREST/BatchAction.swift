import QuarryJSON

/// One operation of Algolia's `batch`, and how runs of the same operation on one index become one call.
enum BatchAction: String {
    case addObject, updateObject, partialUpdateObject, partialUpdateObjectNoCreate, deleteObject, delete, clear

    /// Consecutive operations of one kind on one index share a call, so a batch of 1,000 `addObject`
    /// is one transaction; the calls run in the batch's order.
    static func calls(_ requests: [JSONObject], index fixed: String?) throws(AlgoliaBadRequest) -> [RPCCall] {
        var groups: [(index: String, action: BatchAction, elements: [JSON])] = []
        for (position, request) in requests.enumerated() {
            guard let name = request["action"]?.stringValue, let action = BatchAction(rawValue: name) else {
                let given = request["action"].map { JSONWriter.string($0) } ?? "nothing"
                throw AlgoliaBadRequest(message: "requests[\(position)].action must be one of addObject, updateObject, "
                    + "partialUpdateObject, partialUpdateObjectNoCreate, deleteObject, delete, clear; got \(given)")
            }
            guard let index = fixed ?? request["indexName"]?.stringValue else {
                throw AlgoliaBadRequest(message: "requests[\(position)].indexName must be a string")
            }
            var element = JSON.null
            if action.groups {
                guard let body = request["body"]?.objectValue else {
                    throw AlgoliaBadRequest(message: "requests[\(position)].body must be an object")
                }
                element = .object(body)
                if action == .deleteObject {
                    guard let objectID = body["objectID"].flatMap(Self.objectID) else {
                        throw AlgoliaBadRequest(message: "requests[\(position)].body.objectID must be a string")
                    }
                    element = .string(objectID)
                }
            }
            if action.groups, let last = groups.last, last.index == index, last.action.sharedCall == action.sharedCall {
                groups[groups.count - 1].elements.append(element)
            } else {
                groups.append((index, action, action.groups ? [element] : []))
            }
        }
        return groups.map { group in
            let index = JSON.string(group.index)
            switch group.action {
            case .delete: return RPCCall("deleteIndex", ["index": index])
            case .clear: return RPCCall("clearObjects", ["index": index])
            case .deleteObject: return RPCCall("deleteObjects", ["index": index, "objectIDs": .array(group.elements)])
            case .addObject, .updateObject: return RPCCall("saveObjects", ["index": index, "objects": .array(group.elements)])
            case .partialUpdateObject, .partialUpdateObjectNoCreate:
                return RPCCall("partialUpdateObjects", [
                    "index": index, "objects": .array(group.elements),
                    "createIfNotExists": .bool(group.action == .partialUpdateObject),
                ])
            }
        }
    }

    /// Which actions share a call: `addObject` and `updateObject` are both `saveObjects`.
    var sharedCall: String {
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
