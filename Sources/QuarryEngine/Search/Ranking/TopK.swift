/// Which `k` candidates have the smallest keys, without sorting them all?
///
/// A bounded max-heap: once full, a candidate costs one comparison with the worst kept key, and most
/// candidates stop there because ordinals arrive in static order.
struct TopK<Payload> {
    let capacity: Int
    private(set) var items: [(key: RankingKey, payload: Payload)] = []

    init(capacity: Int) {
        self.capacity = capacity
        items.reserveCapacity(min(capacity, 1024))
    }

    var isFull: Bool { items.count >= capacity }

    /// The key a newcomer must beat once the heap is full.
    var threshold: RankingKey { isFull ? (items.first?.key ?? .worst) : .worst }

    mutating func insert(_ key: RankingKey, _ payload: Payload) {
        guard capacity > 0 else { return }
        if items.count < capacity {
            items.append((key, payload))
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) >> 1
                guard items[parent].key < items[i].key else { break }
                items.swapAt(parent, i)
                i = parent
            }
            return
        }
        guard key < items[0].key else { return }
        items[0] = (key, payload)
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var largest = i
            if l < items.count && items[largest].key < items[l].key { largest = l }
            if r < items.count && items[largest].key < items[r].key { largest = r }
            if largest == i { break }
            items.swapAt(i, largest)
            i = largest
        }
    }

    /// The kept items, best first.
    func sorted() -> [(key: RankingKey, payload: Payload)] { items.sorted { $0.key < $1.key } }
}
