/// A first-in first-out handoff from one thread to another that holds at most `capacity` elements, so
/// a producer faster than its consumer waits instead of piling elements up in memory.
///
/// The producer `put`s, then `close`s; the consumer `take`s until nil. Either side may `cancel`: the
/// elements not taken are dropped, and from then on `put` returns false and `take` nil.
public final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: the fields below `condition` are read and written only under it.
    private let condition = Condition()
    private let capacity: Int
    private var elements: [Element] = []
    private var closed = false
    private var cancelled = false

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Waits while the queue is full; false (and the element dropped) once it was cancelled.
    @discardableResult
    public func put(_ element: Element) -> Bool {
        condition.withLock {
            condition.wait { elements.count < capacity || cancelled }
            guard !cancelled else { return false }
            elements.append(element)
            condition.broadcast()
            return true
        }
    }

    /// The next element, waiting for one; nil once the queue is closed and empty, or cancelled.
    public func take() -> Element? {
        condition.withLock {
            condition.wait { !elements.isEmpty || closed || cancelled }
            guard !cancelled, !elements.isEmpty else { return nil }
            condition.broadcast()
            return elements.removeFirst()
        }
    }

    /// Says nothing more is put: `take` drains what is left, then returns nil.
    public func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    public func cancel() {
        condition.withLock {
            cancelled = true
            elements.removeAll()
            condition.broadcast()
        }
    }
}
