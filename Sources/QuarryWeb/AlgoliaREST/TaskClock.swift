import Foundation
import QuarryAlgoliaREST
import QuarrySync

/// Task ids for REST writes: one counter for the daemon, so ids grow across indices as Algolia's do.
final class TaskClock: Sendable {
    private let last = Locked<Int>(0)

    func next() -> WriteStamp {
        let taskID = last.withLock { last in
            last += 1
            return last
        }
        return WriteStamp(taskID: taskID, time: Date().ISO8601Format(.iso8601WithTimeZone(includingFractionalSeconds: true)))
    }
}
