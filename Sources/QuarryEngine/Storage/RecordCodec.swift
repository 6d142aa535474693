import CZstd
import QuarrySearchContract

/// How a record's JSON sits in `records.body` (store format 2, see ARCHITECTURE.md):
///
/// - TEXT: the JSON as written. Format 1 stores hold only these; format 2 ones
///   hold them for records written before the index had a dictionary, until the
///   record compaction rewrites them, and for records zstd would not shrink.
/// - BLOB: the id of the dictionary it was compressed with (LEB128, 0 for none),
///   then one zstd frame of the JSON, with its content size and checksum.
///
/// The JSON comes back byte for byte: compression never parses or reorders it.
enum RecordCodec {
    /// zstd's default. With a 256 KiB dictionary a 600-byte product compresses to
    /// about 203 bytes; level 5 gets 192, but the daemon spent 4.5 µs more a
    /// record on it and took batches 17% slower (Benchmarks/RESULTS.md).
    static let level: Int32 = 3
    /// A damaged row cannot make a reader allocate more than a record can be.
    static let maxRecordBytes = 1 << 30

    static func appendID(_ id: UInt32, to bytes: inout [UInt8]) {
        var rest = id
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The dictionary id at the start of a blob and where its frame begins.
    static func readID(_ blob: UnsafeBufferPointer<UInt8>) throws(BackendError) -> (id: UInt32, frameStart: Int) {
        var id: UInt32 = 0
        for index in 0..<min(blob.count, 5) {
            id |= UInt32(blob[index] & 0x7F) << (7 * UInt32(index))
            if blob[index] & 0x80 == 0 { return (id, index + 1) }
        }
        throw .storage("a stored record's header is damaged")
    }

    static func failure(_ code: Int, _ what: String) -> BackendError {
        .storage("\(what): \(String(cString: ZSTD_getErrorName(code)))")
    }
}

/// A compressor: one zstd context and the dictionary it uses (digested once,
/// see `RecordDictionary`), reused for every record. Used by one thread at a
/// time: the writer's, or a thread that prepares records before they reach it.
final class RecordCompressor {
    private let context: OpaquePointer
    private(set) var dictionary: RecordDictionary?
    var dictionaryID: UInt32? { dictionary?.id }
    private var output: [UInt8] = []

    init() throws(BackendError) {
        guard let context = ZSTD_createCCtx() else { throw .resourceExhausted("cannot allocate a zstd context") }
        self.context = context
        // The id is in our header: zstd's 4-byte copy of it would only add bytes. The checksum stays
        // (4 bytes): SQLite does not check pages, and a damaged frame must be an error, never a wrong record.
        ZSTD_CCtx_setParameter(context, ZSTD_c_dictIDFlag, 0)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, RecordCodec.level)
    }

    deinit {
        ZSTD_CCtx_refCDict(context, nil)
        ZSTD_freeCCtx(context)
    }

    /// Compresses with `bytes` from now on (nil: keep records as text).
    func use(dictionaryID id: UInt32?, bytes: [UInt8]) throws(BackendError) {
        try use(id.map { (id) throws(BackendError) in try RecordDictionary(id: id, bytes: bytes) })
    }

    /// Compresses with `dictionary` from now on (nil: keep records as text).
    func use(_ dictionary: RecordDictionary?) throws(BackendError) {
        ZSTD_CCtx_refCDict(context, nil)
        self.dictionary = nil
        guard let dictionary else { return }
        let code = ZSTD_CCtx_refCDict(context, dictionary.digested)
        if ZSTD_isError(code) != 0 { throw RecordCodec.failure(code, "record dictionary \(dictionary.id)") }
        self.dictionary = dictionary
    }

    /// The blob to store for `json`, or nil when the text is as small (or there is no dictionary yet).
    func compress(_ json: [UInt8]) throws(BackendError) -> [UInt8]? {
        guard let dictionaryID else { return nil }
        let capacity = ZSTD_compressBound(json.count)
        output.removeAll(keepingCapacity: true)
        RecordCodec.appendID(dictionaryID, to: &output)
        let header = output.count
        output.append(contentsOf: repeatElement(0, count: capacity))
        let written = output.withUnsafeMutableBytes { out in
            json.withUnsafeBytes { source in
                ZSTD_compress2(context, out.baseAddress.map { $0 + header }, capacity, source.baseAddress, source.count)
            }
        }
        if ZSTD_isError(written) != 0 { throw RecordCodec.failure(written, "compressing a record") }
        guard header + written < json.count else { return nil }
        return Array(output[..<(header + written)])
    }
}

/// A reader's decompressor: one zstd context, each dictionary digested once
/// (a `ZSTD_DDict`) when a record first needs it, and one reusable buffer.
final class RecordDecompressor {
    private let context: OpaquePointer
    private var digested: [UInt32: OpaquePointer] = [:]
    private var buffer: UnsafeMutableRawBufferPointer
    private unowned let connection: SQLiteConnection
    private var lookup: SQLiteStatement?

    init(connection: SQLiteConnection) throws(BackendError) {
        guard let context = ZSTD_createDCtx() else { throw .resourceExhausted("cannot allocate a zstd context") }
        self.context = context
        self.connection = connection
        buffer = .allocate(byteCount: 4096, alignment: 1)
    }

    deinit {
        digested.values.forEach { ZSTD_freeDDict($0) }
        ZSTD_freeDCtx(context)
        buffer.deallocate()
    }

    /// The record's JSON in `column`, stored either way, valid only inside `body`.
    func withJSON<T>(
        _ statement: SQLiteStatement, column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(BackendError) -> T
    ) throws(BackendError) -> T {
        guard statement.isBlob(column) else { return try statement.withText(column, body) }
        return try statement.withBlob(column) { (blob) throws(BackendError) -> T in
            let json = try decompress(blob)
            return try body(UnsafeBufferPointer(start: json.baseAddress?.assumingMemoryBound(to: UInt8.self), count: json.count))
        }
    }

    private func decompress(_ blob: UnsafeBufferPointer<UInt8>) throws(BackendError) -> UnsafeRawBufferPointer {
        let (id, start) = try RecordCodec.readID(blob)
        let frame = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(blob)[start...])
        let size = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
        guard size < UInt64(RecordCodec.maxRecordBytes) else { throw .storage("a stored record's frame is damaged") }
        if Int(size) > buffer.count {
            buffer.deallocate()
            buffer = .allocate(byteCount: max(Int(size), 2 * buffer.count), alignment: 1)
        }
        let written: Int
        if id == 0 {
            written = ZSTD_decompressDCtx(context, buffer.baseAddress, buffer.count, frame.baseAddress, frame.count)
        } else {
            let dictionary = try dictionary(id)
            written = ZSTD_decompress_usingDDict(context, buffer.baseAddress, buffer.count, frame.baseAddress, frame.count, dictionary)
        }
        if ZSTD_isError(written) != 0 { throw RecordCodec.failure(written, "a stored record does not decompress") }
        guard written == Int(size) else { throw .storage("a stored record's frame is damaged") }
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<written])
    }

    private func dictionary(_ id: UInt32) throws(BackendError) -> OpaquePointer {
        if let known = digested[id] { return known }
        let statement: SQLiteStatement
        if let lookup {
            statement = lookup
        } else {
            statement = try connection.prepare("SELECT bytes FROM dictionaries WHERE id = ?1")
            lookup = statement
        }
        statement.bind(1, Int64(id))
        defer { statement.reset() }
        guard try statement.step() else { throw .storage("record dictionary \(id) is missing (database damaged?)") }
        let created = try statement.withBlob(0) { (bytes) throws(BackendError) -> OpaquePointer in
            guard let created = ZSTD_createDDict(bytes.baseAddress, bytes.count) else {
                throw .storage("record dictionary \(id) is damaged")
            }
            return created
        }
        digested[id] = created
        return created
    }
}
