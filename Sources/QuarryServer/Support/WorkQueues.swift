import Dispatch
import QuarrySync

/// Where a request runs, declared per method in `Server+Dispatch.swift`.
///
/// - `inline`: cheap and order-sensitive (lifecycle): on the connection's own
///   serial queue, so it is handled before the next message of that connection.
/// - `session`: a session change, inline too, but once the connection's writes
///   in flight have finished, so the searches it starts see them (the
///   connection's later messages wait with it).
/// - `read`: searches, on a pool capped at cores − 1 so the loop thread keeps a
///   core (ARCHITECTURE.md, "Measured facts": its p99 rose otherwise), each after
///   the connection's writes in flight to the index it reads.
/// - `write`: index writes and imports, one at a time per index in arrival
///   order, off the read pool so a long import never delays searches, and on
///   lowered threads (`KeyedSerialQueues.lowered`) so that a stream of writes
///   takes the cores only when searches leave them.
enum Execution {
    case inline
    case session
    case read
    case write
}

/// Runs at most `width` jobs at once, taking turns between keys (connections):
/// a client that floods the daemon with requests waits behind its own, not
/// in front of everyone else's. Within one key, jobs start in FIFO order.
final class FairPool: Sendable {
    private struct State {
        var queues: [UInt64: [@Sendable () -> Void]] = [:]
        /// Keys with queued jobs, in the order they get their next turn.
        var turns: [UInt64] = []
        var running = 0
    }

    private let width: Int
    private let state = Locked(State())

    init(width: Int) {
        self.width = max(1, width)
    }

    func submit(key: UInt64, _ job: @escaping @Sendable () -> Void) {
        let startWorker = state.withLock { state -> Bool in
            if state.queues[key, default: []].isEmpty { state.turns.append(key) }
            state.queues[key, default: []].append(job)
            guard state.running < width else { return false }
            state.running += 1
            return true
        }
        if startWorker {
            DispatchQueue.global(qos: .userInitiated).async { self.work() }
        }
    }

    private func work() {
        while let job = next() { job() }
    }

    /// The next job by turn, or nil (and one worker fewer) when none is left.
    private func next() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard !state.turns.isEmpty else {
                state.running -= 1
                return nil
            }
            let key = state.turns.removeFirst()
            var queue = state.queues[key, default: []]
            let job = queue.removeFirst()
            if queue.isEmpty {
                state.queues[key] = nil
            } else {
                state.queues[key] = queue
                state.turns.append(key)
            }
            return job
        }
    }
}

/// One serial queue per key (an index name): writes to one index apply in
/// the order they arrived, writes to different indices run side by side.
final class KeyedSerialQueues: Sendable {
    private let label: String
    private let queues = Locked<[String: DispatchQueue]>([:])
    /// Where jobs run, their key's queue waiting for them; nil: on the queue itself.
    private let lowered: BackgroundThread?

    init(label: String, lowered: BackgroundThread? = nil) {
        self.label = label
        self.lowered = lowered
    }

    /// Runs `job` in turn on every key's queue at once (a copy writes two indices).
    /// Queues are entered in name order, so two such jobs can never wait for each other.
    func submit(keys: [String], _ job: @escaping @Sendable () -> Void) {
        let run: @Sendable () -> Void
        if let lowered { run = { lowered.run(job) } } else { run = job }
        let queues = Set(keys).sorted().map(queue)
        guard let first = queues.first else { return run() }
        let rest = queues.dropFirst()
        first.async {
            func enter(_ remaining: ArraySlice<DispatchQueue>) {
                guard let next = remaining.first else { return run() }
                next.sync { enter(remaining.dropFirst()) }
            }
            enter(rest)
        }
    }

    private func queue(_ key: String) -> DispatchQueue {
        queues.withLock { queues in
            if let queue = queues[key] { return queue }
            let queue = DispatchQueue(label: "\(label).\(key)")
            queues[key] = queue
            return queue
        }
    }
}
