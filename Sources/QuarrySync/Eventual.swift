/// A value one thread delivers once and another waits for: what a worker thread hands back when it
/// is done.
public final class Eventual<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only under `condition`.
    private let condition = Condition()
    private var value: Value?

    public init() {}

    public func deliver(_ value: Value) {
        condition.withLock {
            self.value = value
            condition.broadcast()
        }
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
