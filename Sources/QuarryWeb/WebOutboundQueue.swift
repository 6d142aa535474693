/// A WebSocket connection's messages not yet handed to the socket, with the socket transport's rules
/// (protocol/README.md, "Ordering guarantees" 8): above the coalescing threshold a message with a key
/// supersedes older unsent ones with the same key; messages without a key are never dropped; past
/// `maxQueuedBytes` the reader is too slow and the connection is closed.
public struct WebOutboundQueue: Sendable {
    public struct Message: Sendable {
        public let bytes: [UInt8]
        public let coalescingKey: String?
    }

    public let coalescingThreshold: Int
    public let maxQueuedBytes: Int
    public private(set) var messages: [Message] = []
    public private(set) var queuedBytes = 0

    public init(coalescingThreshold: Int = 1 << 20, maxQueuedBytes: Int = 256 << 20) {
        self.coalescingThreshold = coalescingThreshold
        self.maxQueuedBytes = maxQueuedBytes
    }

    public enum Outcome: Equatable, Sendable {
        case queued(superseded: Int)
        /// The queue would hold more than `maxQueuedBytes`: close the connection.
        case overflow
    }

    public mutating func append(_ bytes: [UInt8], coalescingKey: String?) -> Outcome {
        var superseded = 0
        if let coalescingKey, queuedBytes + bytes.count > coalescingThreshold {
            let before = messages.count
            messages.removeAll { old in
                guard old.coalescingKey == coalescingKey else { return false }
                queuedBytes -= old.bytes.count
                return true
            }
            superseded = before - messages.count
        }
        guard queuedBytes + bytes.count <= maxQueuedBytes else { return .overflow }
        messages.append(Message(bytes: bytes, coalescingKey: coalescingKey))
        queuedBytes += bytes.count
        return .queued(superseded: superseded)
    }

    /// Everything queued, in order; what is taken has started to go out and is no longer superseded.
    public mutating func takeAll() -> [Message] {
        defer { messages = []; queuedBytes = 0 }
        return messages
    }
}
