/// The arrays a save wrote, and the facet columns made from them, by their offset in its file, so that
/// reading the file back shares them rather than copying or deriving them again.
///
/// A save's read-back becomes the view served next, while the view it was written from is still served:
/// copied, every array the reader copies (dictionaries, offsets, facet tables) and every lookup a facet
/// column derives was held twice at that moment, the highest point of a stream's memory after its last
/// batch (Benchmarks/RESULTS.md, "The read-back shares what the save wrote"). The file's checksum,
/// checked before the read-back is used, vouches that the bytes at each offset are the shelved value's.
final class ArrayShelf {
    private struct Key: Hashable {
        let offset: Int
        let type: ObjectIdentifier
    }

    private var items: [Key: Any] = [:]

    init() {}

    /// `value` as written from byte `offset` of the file.
    func keep<Value>(_ value: Value, at offset: Int) {
        items[Key(offset: offset, type: ObjectIdentifier(Value.self))] = value
    }

    /// The value of this type written from `offset`; given once.
    func take<Value>(at offset: Int) -> Value? {
        items.removeValue(forKey: Key(offset: offset, type: ObjectIdentifier(Value.self))) as? Value
    }
}
