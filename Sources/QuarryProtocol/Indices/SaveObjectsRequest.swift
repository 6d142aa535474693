import QuarryJSON

/// `saveObjects` {index, objects}: add or replace records by `objectID`
/// (generated when missing). The index is created on first write, and the
/// records are searchable when the reply is sent.
public struct SaveObjectsRequest: RequestType {
    public static let method = "saveObjects"
    public typealias Response = WriteResponse
    public var index: String
    public var objects: [JSONObject]

    public init(params: Params) throws(ResponseError) {
        index = try params.indexName()
        objects = try params.objects("objects")
    }
}

/// The reply to a write: the ids it touched and a task id (writes are
/// synchronous in Quarry, so the task is already done).
public struct WriteResponse: ResponseType {
    public var objectIDs: [String]?
    public var taskID: Int64

    public init(objectIDs: [String]?, taskID: Int64) {
        self.objectIDs = objectIDs
        self.taskID = taskID
    }

    public var json: JSON {
        var object: JSONObject = ["taskID": .int(taskID)]
        if let objectIDs { object["objectIDs"] = .array(objectIDs.map(JSON.string)) }
        return .object(object)
    }
}
