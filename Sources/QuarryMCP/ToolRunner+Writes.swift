import QuarryJSON

/// The tools that change records, offered only under `--allow-writes`.
extension ToolRunner {
    func saveObjects(_ arguments: ToolArguments) throws -> (JSON, String) {
        let index = arguments.required("index")
        let reply = try daemon("saveObjects", ["index": .string(index), "objects": arguments["objects"] ?? []], index: nil)
        return Self.written(index, reply, verb: "saved")
    }

    func deleteObjects(_ arguments: ToolArguments) throws -> (JSON, String) {
        let index = arguments.required("index")
        let reply = try daemon("deleteObjects", ["index": .string(index), "objectIDs": arguments["objectIDs"] ?? []], index: index)
        return Self.written(index, reply, verb: "deleted")
    }

    static func written(_ index: String, _ reply: JSON, verb: String) -> (JSON, String) {
        let ids = reply["objectIDs"] ?? []
        return (["index": .string(index), "objectIDs": ids, "taskID": reply["taskID"] ?? 0],
                "\(ids.arrayValue?.count ?? 0) records \(verb) in \(index).")
    }

    func importFile(_ arguments: ToolArguments) throws -> (JSON, String) {
        let index = arguments.required("index")
        let path = arguments.required("path")
        // The daemon resolves paths on its own side, where this process's directory means nothing.
        guard path.hasPrefix("/") else { throw ToolFailure("path: `\(path)` is not absolute; give the file's absolute path.") }
        var params: JSONObject = ["index": .string(index), "path": .string(path)]
        for name in ["format", "settings"] {
            if let value = arguments[name] { params[name] = value }
        }
        let reply = try daemon("importFile", .object(params), index: nil)
        var result: JSONObject = ["index": .string(index)]
        for name in ["imported", "skipped", "skippedReasons", "taskID", "durationMS"] {
            if let value = reply[name] { result[name] = value }
        }
        return (.object(result), "\(reply["imported"]?.intValue ?? 0) records imported into \(index) from \(path).")
    }
}
