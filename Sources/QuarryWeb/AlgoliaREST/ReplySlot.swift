import QuarrySync

/// Where one JSON-RPC reply's bytes meet the REST request awaiting them, whichever comes first.
final class ReplySlot: Sendable {
    private let state = Locked<(reply: [UInt8]?, waiter: CheckedContinuation<[UInt8], Never>?)>((nil, nil))

    func deliver(_ reply: [UInt8]) {
        let waiter = state.withLock { state -> CheckedContinuation<[UInt8], Never>? in
            guard let waiter = state.waiter else {
                state.reply = reply
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: reply)
    }

    func wait() async -> [UInt8] {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [UInt8]? in
                if let reply = state.reply { return reply }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
