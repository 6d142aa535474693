import QuarrySync

/// Set by `$/cancelRequest`, read by the work it concerns.
public final class CancellationToken: Sendable {
    private let state = Locked(false)

    public init() {}

    public var isCancelled: Bool { state.withLock { $0 } }

    public func cancel() { state.withLock { $0 = true } }
}
