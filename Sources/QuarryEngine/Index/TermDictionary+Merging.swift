extension TermDictionary {
    /// The sorted union of `parts` and, per part, the merged id of each of its terms. A merge of segments
    /// takes its dictionary from here: the parts are sorted already, so merging them costs one comparison
    /// a term per level of a heap of parts, where interning every term and sorting them again cost a
    /// quarter of the merge.
    static func merging(_ parts: [TermDictionary]) -> (TermDictionary, [[UInt32]]) {
        var maps = parts.map { [UInt32](repeating: 0, count: $0.count) }
        var bytes: [UInt8] = []
        var offsets: [UInt32] = [0]
        bytes.reserveCapacity(parts.map(\.bytes.count).max() ?? 0)
        offsets.reserveCapacity((parts.map(\.count).max() ?? 0) + 1)
        var cursor = [Int](repeating: 0, count: parts.count)
        var heap = MergeHeap(parts: parts)
        for part in parts.indices where parts[part].count > 0 { heap.push(part, cursor) }
        var previous: (part: Int, term: Int)?
        while let part = heap.pop(cursor) {
            let term = cursor[part]
            if let previous, compare(parts[previous.part], previous.term, parts[part], term) == 0 {
                maps[part][term] = UInt32(offsets.count - 2)
            } else {
                let source = parts[part]
                bytes.append(contentsOf: source.bytes[Int(source.offsets[term])..<Int(source.offsets[term + 1])])
                offsets.append(UInt32(bytes.count))
                maps[part][term] = UInt32(offsets.count - 2)
            }
            previous = (part, term)
            cursor[part] += 1
            if cursor[part] < parts[part].count { heap.push(part, cursor) }
        }
        return (TermDictionary(bytes: bytes, offsets: offsets), maps)
    }

    /// Bytewise three-way comparison of term `i` of `x` with term `j` of `y`.
    static func compare(_ x: TermDictionary, _ i: Int, _ y: TermDictionary, _ j: Int) -> Int {
        let start = Int(y.offsets[j]), end = Int(y.offsets[j + 1])
        return y.bytes.withUnsafeBufferPointer { x.compare(i, UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }
}

/// The parts of a dictionary merge, least current term on top.
private struct MergeHeap {
    let parts: [TermDictionary]
    private var heap: [Int] = []

    init(parts: [TermDictionary]) {
        self.parts = parts
        heap.reserveCapacity(parts.count)
    }

    /// Ties go to the earlier part, so that equal terms are taken in part order.
    private func less(_ a: Int, _ b: Int, _ cursor: [Int]) -> Bool {
        let c = TermDictionary.compare(parts[a], cursor[a], parts[b], cursor[b])
        return c != 0 ? c < 0 : a < b
    }

    mutating func push(_ part: Int, _ cursor: [Int]) {
        heap.append(part)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent], cursor) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop(_ cursor: [Int]) -> Int? {
        guard let top = heap.first, let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return top }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var least = parent
            if left < heap.count && less(heap[left], heap[least], cursor) { least = left }
            if right < heap.count && less(heap[right], heap[least], cursor) { least = right }
            guard least != parent else { break }
            heap.swapAt(parent, least)
            parent = least
        }
        return top
    }
}
