/// Reads control values (split points, modes) off the front of a fuzz input,
/// so libFuzzer's mutations steer them as well as the payload that follows.
struct FuzzBytes {
    private let data: [UInt8]
    private(set) var position = 0

    init(_ data: [UInt8]) {
        self.data = data
    }

    /// The next byte, or 0 once the input is used up.
    mutating func byte() -> UInt8 {
        guard position < data.count else { return 0 }
        defer { position += 1 }
        return data[position]
    }

    /// Everything not read yet.
    var rest: [UInt8] { Array(data[min(position, data.count)...]) }
}

/// A fixed sequence of chunk sizes derived from one seed byte, so a split is
/// reproducible from the input alone.
struct ChunkSizes {
    private var state: UInt32

    init(seed: UInt8) {
        state = UInt32(seed) &* 2_654_435_761 | 1
    }

    /// 1 to `maximum` bytes.
    mutating func next(maximum: Int) -> Int {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return Int(state % UInt32(max(maximum, 1))) + 1
    }
}
