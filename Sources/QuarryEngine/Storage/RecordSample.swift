import CZstd

/// Records gathered to train an index's dictionary, and the training.
///
/// zstd alone barely shrinks one 600-byte record (it has nothing to refer
/// back to); a dictionary trained on the index's own records holds the keys,
/// brands and phrases they share, and brings it to about a third.
struct RecordSample {
    /// Enough for zstd's trainer to find what records share; a few MiB at most.
    static let records = 2000
    /// A huge record counts for its beginning only, so the sample stays small.
    static let prefixBytes = 8 << 10
    /// A quarter of a 2,000-product sample: 64 KiB left records 10 bytes larger each.
    static let dictionaryBytes = 256 << 10

    private(set) var bytes: [UInt8] = []
    private(set) var sizes: [Int] = []

    var isFull: Bool { sizes.count >= Self.records }

    mutating func add(_ json: [UInt8]) {
        guard !isFull else { return }
        let kept = min(json.count, Self.prefixBytes)
        bytes.append(contentsOf: json[..<kept])
        sizes.append(kept)
    }

    /// The segment size the trainer covers the sample with. `ZDICT_trainFromBuffer` tries four and keeps the
    /// best, 390–570 ms on 2,000 records inside the write that filled the sample, on the writer's critical
    /// path (most of a small index's first import); one fixed size trains in 70–120 ms and left records
    /// 0.3–2.5% larger on six real datasets (Benchmarks/RESULTS.md, "The dictionary trained once").
    static let segmentSize: UInt32 = 1024

    /// The dictionary zstd trains on the sample, or nil when it finds nothing
    /// worth one (too few bytes, or records with nothing in common).
    func train() -> [UInt8]? {
        let capacity = min(Self.dictionaryBytes, max(bytes.count / 4, 1024))
        var parameters = ZDICT_fastCover_params_t()
        parameters.k = min(Self.segmentSize, UInt32(capacity))
        parameters.d = 8
        parameters.zParams.compressionLevel = RecordCodec.level
        var dictionary = [UInt8](repeating: 0, count: capacity)
        let size = dictionary.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { samples in
                ZDICT_trainFromBuffer_fastCover(out.baseAddress, capacity, samples.baseAddress, sizes, UInt32(sizes.count), parameters)
            }
        }
        guard ZDICT_isError(size) == 0, size > 0 else { return nil }
        return Array(dictionary[..<size])
    }
}
