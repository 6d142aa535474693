/// The sizes of the chunks one thread hands another in a stream: small at first, so that the consumer
/// starts at once instead of waiting for a whole chunk, then doubling up to `limit`, so that a long stream
/// pays for few handoffs. With 256 from the first, a write of 1,000 records began its index build only
/// after its store had taken 256 of them (Benchmarks/RESULTS.md, "Handoffs that start small, and a
/// write's merge beside the next").
public struct ChunkSizes: Sendable {
    public private(set) var current: Int
    private let limit: Int

    public init(first: Int = 32, limit: Int) {
        self.limit = max(1, limit)
        current = min(max(1, first), self.limit)
    }

    /// Moves on to the next chunk's size.
    public mutating func advance() {
        current = min(current * 2, limit)
    }
}
