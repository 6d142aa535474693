/// The task a write answers with: Quarry's writes are visible when they return, so every task is
/// already published; the id only has to grow (protocol/algolia-rest.md, "Tasks").
public struct WriteStamp: Sendable {
    public var taskID: Int
    /// ISO 8601, UTC: `updatedAt`, `createdAt`, `deletedAt`.
    public var time: String

    public init(taskID: Int, time: String) {
        self.taskID = taskID
        self.time = time
    }
}
