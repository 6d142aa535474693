import CZstd
import QuarrySearchContract
import QuarrySync

/// An index's trained dictionary, digested for compression once (a `ZSTD_CDict`) and shared read-only by
/// every compressor that uses it: the writer's, and those of the threads that prepare records before they
/// reach the writer (zstd lets many contexts reference one digested dictionary at once).
///
/// A prepared record names the dictionary object it was compressed with, not only its id: a dictionary
/// trained in a write that rolled back leaves its id free for the next one, with other bytes.
final class RecordDictionary: @unchecked Sendable {
    let id: UInt32
    /// Immutable once created; freed with this object.
    let digested: OpaquePointer

    init(id: UInt32, bytes: [UInt8]) throws(BackendError) {
        let created = bytes.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, RecordCodec.level) }
        guard let created else { throw .storage("record dictionary \(id) is damaged") }
        self.id = id
        digested = created
    }

    deinit { ZSTD_freeCDict(digested) }
}

/// A record's JSON as the writer will store it, compressed (or found not worth it) off the writer's thread
/// with `dictionary`; the writer binds `blob` (or the text) only if it still compresses with that dictionary,
/// and otherwise compresses `json` itself, as it would have.
struct PreparedRecordBody: Sendable {
    let json: [UInt8]
    /// The stored form under `dictionary`; nil when the text is as small.
    let blob: [UInt8]?
    /// Nil when the index had no dictionary yet: the writer samples and compresses the record.
    let dictionary: RecordDictionary?

    /// `json` left to the writer.
    init(json: [UInt8]) {
        self.json = json
        blob = nil
        dictionary = nil
    }

    /// `json` compressed by `compressor` with the dictionary it uses (left to the writer if that fails:
    /// the writer's own attempt then reports the error).
    init(json: [UInt8], compressor: RecordCompressor) {
        self.json = json
        do {
            blob = try compressor.compress(json)
            dictionary = compressor.dictionary
        } catch {
            blob = nil
            dictionary = nil
        }
    }
}

/// The dictionary an index compresses with now, as its writer last published it, for the threads that
/// prepare records while the writer stores them.
final class CurrentRecordDictionary: Sendable {
    private let current = Locked<RecordDictionary?>(nil)

    var dictionary: RecordDictionary? { current.withLock { $0 } }

    func publish(_ dictionary: RecordDictionary?) {
        current.withLock { if $0 !== dictionary { $0 = dictionary } }
    }

    /// `json` prepared by `compressor` (one thread's), after it switched to the current dictionary.
    func prepare(_ json: [UInt8], with compressor: RecordCompressor) -> PreparedRecordBody {
        let dictionary = self.dictionary
        if compressor.dictionary !== dictionary {
            do { try compressor.use(dictionary) } catch { return PreparedRecordBody(json: json) }
        }
        return PreparedRecordBody(json: json, compressor: compressor)
    }
}
