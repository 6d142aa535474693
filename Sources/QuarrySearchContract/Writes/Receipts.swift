import QuarryJSON

/// One item of `listIndices`, with the fields of Algolia's listIndices items.
public struct IndexSummary: Sendable, Equatable {
    public var name: String
    public var entries: Int
    /// Bytes of the records database (with its write-ahead log).
    public var dataSize: Int64
    /// `dataSize` plus the derived search index file.
    public var fileSize: Int64
    /// Milliseconds since 1970, UTC.
    public var createdAt: Int64
    public var updatedAt: Int64
    public var lastBuildTimeS: Int
    public var replicas: [String]
    /// Set on a replica: its primary index.
    public var primary: String?
    /// Its search structures in memory, when asked for (a virtual replica's are mostly its primary's, counted again).
    public var memory: IndexMemory?

    /// For other backends, which answer in the engine's vocabulary.
    package init(name: String, entries: Int, dataSize: Int64, fileSize: Int64, createdAt: Int64, updatedAt: Int64, lastBuildTimeS: Int, replicas: [String], primary: String?, memory: IndexMemory?) {
        self.name = name
        self.entries = entries
        self.dataSize = dataSize
        self.fileSize = fileSize
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastBuildTimeS = lastBuildTimeS
        self.replicas = replicas
        self.primary = primary
        self.memory = memory
    }

    public func json() -> JSONObject {
        var object: JSONObject = [
            "name": .string(name), "createdAt": .string(WallTime.iso8601(createdAt)),
            "updatedAt": .string(WallTime.iso8601(updatedAt)), "entries": JSON(entries),
            "dataSize": .int(dataSize), "fileSize": .int(fileSize), "lastBuildTimeS": JSON(lastBuildTimeS),
            "numberOfPendingTasks": 0, "pendingTask": false,
        ]
        if !replicas.isEmpty { object["replicas"] = .array(replicas.map { .string($0) }) }
        if let primary { object["primary"] = .string(primary) }
        if let memory { object["memory"] = .object(memory.json()) }
        return object
    }
}

/// What a write answers once it is committed and searchable.
public struct WriteReceipt: Sendable, Equatable {
    public var objectIDs: [String]
    /// The index's store generation after this write: increases with every write.
    public var taskID: Int64

    /// For other backends, which answer in the engine's vocabulary.
    package init(objectIDs: [String], taskID: Int64) {
        self.objectIDs = objectIDs
        self.taskID = taskID
    }

    public func json() -> JSONObject {
        ["objectIDs": .array(objectIDs.map { .string($0) }), "taskID": .int(taskID)]
    }
}

public struct SettingsReceipt: Sendable, Equatable {
    public var taskID: Int64
    /// Setting names given that Quarry stores but does not act on.
    public var unsupported: [String]

    /// For other backends, which answer in the engine's vocabulary.
    package init(taskID: Int64, unsupported: [String]) {
        self.taskID = taskID
        self.unsupported = unsupported
    }

    public func json() -> JSONObject {
        ["taskID": .int(taskID), "unsupported": .array(unsupported.map { .string($0) })]
    }
}

public struct ImportProgress: Sendable, Equatable {
    public var bytesRead: Int64
    public var totalBytes: Int64
    public var records: Int
    public var skipped: Int

    package init(bytesRead: Int64, totalBytes: Int64, records: Int, skipped: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.records = records
        self.skipped = skipped
    }
}

public struct ImportReceipt: Sendable, Equatable {
    public var index: String
    public var imported: Int
    public var skipped: Int
    /// The first few skipped records: `"line 40: reason"`.
    public var skippedReasons: [String]
    public var taskID: Int64
    public var durationMS: Int

    /// For other backends, which answer in the engine's vocabulary.
    package init(index: String, imported: Int, skipped: Int, skippedReasons: [String], taskID: Int64, durationMS: Int) {
        self.index = index
        self.imported = imported
        self.skipped = skipped
        self.skippedReasons = skippedReasons
        self.taskID = taskID
        self.durationMS = durationMS
    }

    public func json() -> JSONObject {
        [
            "index": .string(index), "imported": JSON(imported), "skipped": JSON(skipped),
            "skippedReasons": .array(skippedReasons.map { .string($0) }), "taskID": .int(taskID),
            "durationMS": JSON(durationMS),
        ]
    }
}
