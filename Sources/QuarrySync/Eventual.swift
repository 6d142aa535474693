/// A value one thread delivers once and another waits for: what a worker thread hands back when it
/// is done.
public final class Eventual<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` and `onDelivery` are read and written only under `condition`.
    private let condition = Condition()
    private var value: Value?
    private var onDelivery: (@Sendable (Value) -> Void)?

    public init() {}

    public func deliver(_ value: Value) {
        let then = condition.withLock {
            self.value = value
            condition.broadcast()
            defer { onDelivery = nil }
            return onDelivery
        }
        then?(value)
    }

    /// Runs `body` with the value once delivered: on the delivering thread, or at once on this one if it
    /// already was. A body given before delivery replaces the one given before it; each is let go of once run.
    public func whenDelivered(_ body: @escaping @Sendable (Value) -> Void) {
        let delivered = condition.withLock {
            if value == nil { onDelivery = body }
            return value
        }
        if let delivered { body(delivered) }
    }

    /// True once the value is delivered: `wait()` would not wait.
    public var isDelivered: Bool {
        condition.withLock { value != nil }
    }

    /// Waits until the value is delivered.
    public func wait() -> Value {
        condition.withLock {
            condition.wait { value != nil }
            guard let value else { preconditionFailure("woken without the value it waited for") }
            return value
        }
    }
}
