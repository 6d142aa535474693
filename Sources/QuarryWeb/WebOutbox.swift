import QuarrySync

/// The hand-over between the server (any thread) and one WebSocket's writer task.
final class WebOutbox: Sendable {
    private struct State: Sendable {
        var queue: WebOutboundQueue
        /// After `close`: what is queued still goes out, then the writer ends.
        var closing = false
        /// The writer is gone (peer closed, overflow): sends are dropped.
        var finished = false
        var waiter: CheckedContinuation<[WebOutboundQueue.Message]?, Never>?
    }

    private let state: Locked<State>
    private let onOverflow: @Sendable () -> Void

    init(coalescingThreshold: Int, maxQueuedBytes: Int, onOverflow: @escaping @Sendable () -> Void) {
        state = Locked(State(queue: WebOutboundQueue(coalescingThreshold: coalescingThreshold, maxQueuedBytes: maxQueuedBytes)))
        self.onOverflow = onOverflow
    }

    func send(_ bytes: [UInt8], coalescingKey: String?) {
        typealias Waiter = CheckedContinuation<[WebOutboundQueue.Message]?, Never>
        let (waiter, batch, overflowed): (Waiter?, [WebOutboundQueue.Message]?, Bool) = state.withLock { state in
            guard !state.finished, !state.closing else { return (nil, nil, false) }
            let overflowed = state.queue.append(bytes, coalescingKey: coalescingKey) == .overflow
            if overflowed {
                state.finished = true
                _ = state.queue.takeAll()
            }
            guard let waiter = state.waiter else { return (nil, nil, overflowed) }
            state.waiter = nil
            return (waiter, overflowed ? nil : state.queue.takeAll(), overflowed)
        }
        waiter?.resume(returning: batch)
        if overflowed { onOverflow() }
    }

    /// Sends what is queued, then ends the writer.
    func close() {
        let wake = state.withLock { state -> CheckedContinuation<[WebOutboundQueue.Message]?, Never>? in
            state.closing = true
            defer { state.waiter = nil }
            return state.waiter
        }
        wake?.resume(returning: nil)
    }

    /// The writer stopped (the peer is gone): later sends are dropped.
    func abandon() {
        let wake = state.withLock { state -> CheckedContinuation<[WebOutboundQueue.Message]?, Never>? in
            state.finished = true
            _ = state.queue.takeAll()
            defer { state.waiter = nil }
            return state.waiter
        }
        wake?.resume(returning: nil)
    }

    /// The messages to write next, waiting for some; nil when the writer should end.
    func next() async -> [WebOutboundQueue.Message]? {
        if let ready = take() { return ready }
        if state.withLock({ $0.finished || $0.closing }) { return nil }
        return await withCheckedContinuation { continuation in
            let immediate: [WebOutboundQueue.Message]?? = state.withLock { state in
                if state.finished { return .some(nil) }
                if !state.queue.messages.isEmpty { return .some(state.queue.takeAll()) }
                if state.closing { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Takes the queued messages, if any (and if not finished).
    private func take() -> [WebOutboundQueue.Message]? {
        state.withLock { state in
            guard !state.finished, !state.queue.messages.isEmpty else { return nil }
            return state.queue.takeAll()
        }
    }
}
