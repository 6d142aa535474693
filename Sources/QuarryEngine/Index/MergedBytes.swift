/// One of a merge's large byte arrays (postings or token positions), written front to back: into a spill
/// file when the merge is large (`SpillFile`), else into a heap block that becomes the array itself, without
/// the copy that handing an `[UInt8]` to `StoredArray` makes (half a merged segment held twice for an instant).
/// Used by one thread.
final class MergedBytes {
    private let spill: SpillFile?
    /// The array being written, when on the heap.
    private var block: UnsafeMutableRawBufferPointer
    /// Bytes written.
    private(set) var count = 0

    /// An array of about `capacity` bytes (more grows it), in `spill` when given.
    init(capacity: Int, spill: SpillFile?) {
        self.spill = spill
        block = spill == nil
            ? .allocate(byteCount: max(capacity, 16), alignment: 16) : UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }

    deinit { block.deallocate() }

    /// Appends at most `length` bytes that `body` writes at the pointer it is given, returning how many it wrote.
    @inline(__always)
    func append(atMost length: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        if let spill {
            spill.append(atMost: length) { body(UnsafeMutableBufferPointer(start: $0.bindMemory(to: UInt8.self, capacity: length), count: length)) }
            count = spill.count
            return
        }
        if count + length > block.count { grow(to: max(count + length, block.count + block.count / 2)) }
        let start = block.baseAddress.map { ($0 + count).bindMemory(to: UInt8.self, capacity: length) }
        count += body(UnsafeMutableBufferPointer(start: start, count: length))
    }

    func appendZeros(_ n: Int) {
        append(atMost: n) { bytes in
            bytes.update(repeating: 0)
            return n
        }
    }

    /// The array; nil when its spill file failed (a full disk), and then it must be written again on the heap.
    func finish() -> StoredArray<UInt8>? {
        if let spill { return spill.finish() }
        let elements = block.bindMemory(to: UInt8.self)
        block = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        return StoredArray(adopting: elements, count: count)
    }

    /// The `capacity` bytes `write` appends, then `padding` zeros: in `spill` when given, else (or when the
    /// spill file fails, a full disk) written again into a heap block, which never fails.
    static func stored(capacity: Int, padding: Int, spill: SpillFile?, _ write: (MergedBytes) -> Void) -> StoredArray<UInt8> {
        if let spill, let stored = written(capacity: capacity, padding: padding, spill: spill, write) { return stored }
        return written(capacity: capacity, padding: padding, spill: nil, write) ?? StoredArray()
    }

    private static func written(capacity: Int, padding: Int, spill: SpillFile?, _ write: (MergedBytes) -> Void)
        -> StoredArray<UInt8>? {
        let bytes = MergedBytes(capacity: capacity + padding, spill: spill)
        write(bytes)
        bytes.appendZeros(padding)
        return bytes.finish()
    }

    private func grow(to capacity: Int) {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        if count > 0 { larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: block[0..<count])) }
        block.deallocate()
        block = larger
    }
}
