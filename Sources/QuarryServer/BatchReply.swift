import QuarryJSON
import QuarrySync

/// Collects the replies of a batch; the whole batch is answered in one array
/// once every element has answered, and not at all if all were notifications.
final class BatchReply: Sendable {
    private let slots: Locked<(replies: [JSON?], remaining: Int)>
    private let deliver: @Sendable ([JSON]) -> Void

    init(count: Int, deliver: @escaping @Sendable ([JSON]) -> Void) {
        slots = Locked((Array(repeating: nil, count: count), count))
        self.deliver = deliver
    }

    func slot(_ index: Int) -> @Sendable (JSON?) -> Void {
        { [self] reply in
            let done: [JSON]? = slots.withLock { slots in
                slots.replies[index] = reply
                slots.remaining -= 1
                return slots.remaining == 0 ? slots.replies.compactMap { $0 } : nil
            }
            if let done, !done.isEmpty { deliver(done) }
        }
    }
}
