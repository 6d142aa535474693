import Dispatch

/// Where a request runs, declared per method in `Server+Dispatch.swift`.
///
/// - `inline`: cheap and order-sensitive (lifecycle): on the connection's own
///   serial queue, so it is handled before the next message of that connection.
/// - `read`: searches, on a pool capped at cores − 1 so the loop thread keeps a
///   core (NOTES-swift-libuv.md measured its p99 rising otherwise).
/// - `write`: index writes and imports, one at a time per index in arrival
///   order, off the read pool so a long import never delays searches.
enum Execution {
    case inline
    case read
    case write
}

/// A concurrent queue that runs at most `width` jobs at once, in FIFO order.
final class BoundedPool: Sendable {
    private let gate: DispatchQueue
    private let workers: DispatchQueue
    private let slots: DispatchSemaphore

    init(label: String, width: Int) {
        gate = DispatchQueue(label: "\(label).gate")
        workers = DispatchQueue(label: label, attributes: .concurrent)
        slots = DispatchSemaphore(value: max(1, width))
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        gate.async { [slots, workers] in
            slots.wait()
            workers.async {
                defer { slots.signal() }
                job()
            }
        }
    }
}

/// One serial queue per key (an index name): writes to one index apply in
/// the order they arrived, writes to different indices run side by side.
final class KeyedSerialQueues: Sendable {
    private let label: String
    private let queues = Locked<[String: DispatchQueue]>([:])

    init(label: String) { self.label = label }

    func submit(key: String?, _ job: @escaping @Sendable () -> Void) {
        let key = key ?? ""
        let queue = queues.withLock { queues in
            if let queue = queues[key] { return queue }
            let queue = DispatchQueue(label: "\(label).\(key)")
            queues[key] = queue
            return queue
        }
        queue.async(execute: job)
    }
}
