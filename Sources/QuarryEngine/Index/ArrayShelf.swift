/// The arrays a save wrote, by their offset in its file, so that reading the file back shares them rather
/// than copying them out again.
///
/// A save's read-back becomes the view served next, while the view it was written from is still served:
/// copied, every array the reader copies (dictionaries, offsets, facet tables) was held twice at that
/// moment, the highest point of a stream's memory after its last batch (Benchmarks/RESULTS.md, "Merges
/// that spill to files"). The file's checksum, checked before the read-back is used, vouches that the
/// bytes at each offset are the shelved array's.
final class ArrayShelf {
    private var arrays: [Int: Any] = [:]

    init() {}

    /// `array` as written at byte `offset` of the file.
    func keep<T: BitwiseCopyable>(_ array: [T], at offset: Int) {
        arrays[offset] = array
    }

    /// The array written at `offset`, if it has this element type and `count`; given once.
    func take<T: BitwiseCopyable>(at offset: Int, count: Int) -> [T]? {
        guard let array = arrays.removeValue(forKey: offset) as? [T], array.count == count else { return nil }
        return array
    }
}
