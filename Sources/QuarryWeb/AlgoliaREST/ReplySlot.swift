import QuarryAlgoliaREST
import QuarrySync

/// Where one JSON-RPC reply meets the REST request awaiting it, whichever comes first.
final class ReplySlot: Sendable {
    private let state = Locked<(outcome: RPCOutcome?, waiter: CheckedContinuation<RPCOutcome, Never>?)>((nil, nil))

    func deliver(_ outcome: RPCOutcome) {
        let waiter = state.withLock { state -> CheckedContinuation<RPCOutcome, Never>? in
            guard let waiter = state.waiter else {
                state.outcome = outcome
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: outcome)
    }

    func wait() async -> RPCOutcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> RPCOutcome? in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
