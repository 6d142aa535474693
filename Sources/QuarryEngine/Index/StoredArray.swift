/// A read-only array of plain values that a segment keeps: built in memory, or read in place from
/// the index file the segment was opened from (see `FileMapping`).
///
/// In place, only the pages searches touch are resident, and the kernel may drop them under pressure:
/// a catalogue's numbers, sort keys and id lookup are read by few searches, and its postings and
/// token positions a part at a time.
struct StoredArray<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    /// Keeps `buffer` valid; nothing writes through `buffer` once made, which is what makes sharing it safe.
    private let owner: AnyObject?
    let buffer: UnsafeBufferPointer<Element>
    /// Whether the elements are read from a file rather than held on the heap.
    let isMapped: Bool

    init() {
        owner = nil
        buffer = UnsafeBufferPointer(start: nil, count: 0)
        isMapped = false
    }

    init<S: Collection>(_ elements: S) where S.Element == Element {
        let heap = HeapElements<Element>(elements)
        owner = heap
        buffer = UnsafeBufferPointer(heap.buffer)
        isMapped = false
    }

    /// `count` elements written in place by `body`, which initializes every one: a large array made without
    /// the copy `init(_:)` makes of one built elsewhere.
    init(count: Int, initializingWith body: (UnsafeMutableBufferPointer<Element>) -> Void) {
        let heap = HeapElements<Element>(count: count)
        body(heap.buffer)
        owner = heap
        buffer = UnsafeBufferPointer(heap.buffer)
        isMapped = false
    }

    /// The first `count` elements of `block`, allocated and initialized by the caller and owned by the array
    /// from now on.
    init(adopting block: UnsafeMutableBufferPointer<Element>, count: Int) {
        let heap = HeapElements<Element>(adopting: block)
        owner = heap
        buffer = UnsafeBufferPointer(rebasing: heap.buffer[0..<count])
        isMapped = false
    }

    /// `count` elements at byte `offset` of `mapping`, which the caller has checked lie inside it, aligned.
    init(mapping: FileMapping, offset: Int, count: Int) {
        owner = mapping
        let base = mapping.raw.baseAddress.map { ($0 + offset).assumingMemoryBound(to: Element.self) }
        buffer = UnsafeBufferPointer(start: count == 0 ? nil : base, count: count)
        isMapped = true
    }

    var startIndex: Int { 0 }
    var endIndex: Int { buffer.count }

    @inline(__always)
    subscript(position: Int) -> Element { buffer[position] }

    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(owner) { try body(buffer) }
    }

    @inline(__always)
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(owner) { try body(UnsafeRawBufferPointer(buffer)) }
    }

    /// Bytes held on the heap (none when mapped).
    var heapBytes: Int { isMapped ? 0 : buffer.count * MemoryLayout<Element>.stride }
    /// Bytes read in place from a file (none when on the heap).
    var mappedBytes: Int { isMapped ? buffer.count * MemoryLayout<Element>.stride : 0 }

    /// Unmaps this array's pages from the process when it is read in place (they stay in the page cache).
    func releaseResidentPages() {
        (owner as? FileMapping)?.releaseResidentPages(of: UnsafeRawBufferPointer(buffer))
    }

    /// Unmaps the pages of the elements in `range`, as `releaseResidentPages()` does for all: a walk front to back
    /// lets go of what it has read.
    func releaseResidentPages(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        (owner as? FileMapping)?.releaseResidentPages(of: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range])))
    }

    /// The first element of the `alignment`-aligned block of addresses that holds element `i` (0 when the
    /// block starts before the array).
    func blockStart(of i: Int, alignment: Int) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let start = Int(bitPattern: base), address = start + i * MemoryLayout<Element>.stride
        let block = address & ~(alignment - 1)
        return block <= start ? 0 : (block - start) / MemoryLayout<Element>.stride
    }

    /// Maps the pages of the elements in `range` in one pass when they are read in place (`FileMapping.populate`).
    func populate(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        (owner as? FileMapping)?.populate(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range])))
    }

    /// A copy as an array (tests, and tools that edit elements).
    var array: [Element] { [Element](buffer) }
}

/// The heap block a built `StoredArray` reads from, freed with the last array that shares it.
private final class HeapElements<Element: BitwiseCopyable> {
    let buffer: UnsafeMutableBufferPointer<Element>

    init<S: Collection>(_ elements: S) where S.Element == Element {
        buffer = UnsafeMutableBufferPointer.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
    }

    init(count: Int) {
        buffer = UnsafeMutableBufferPointer.allocate(capacity: count)
    }

    init(adopting block: UnsafeMutableBufferPointer<Element>) {
        buffer = block
    }

    deinit { buffer.deallocate() }
}

extension Array where Element: BitwiseCopyable {
    /// The elements of `parts` laid end to end, a part at a time: `Array(parts.joined())` copied them one
    /// by one, 0.8% of a stream's samples in its merges (Benchmarks/RESULTS.md, "Writes share a trim,
    /// carry a running merge, and sort by radix").
    init(concatenating parts: [StoredArray<Element>]) {
        self.init()
        reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { append(contentsOf: part.buffer) }
    }
}
