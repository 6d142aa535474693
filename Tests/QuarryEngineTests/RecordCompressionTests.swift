import QuarryJSON
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// Records stored compressed (store format 2):
/// 1. every record comes back byte for byte: tiny, empty, non-ASCII, very large, incompressible;
/// 2. records written before the dictionary are rewritten by the record compaction, and the file shrinks;
/// 3. a second dictionary leaves the rows compressed with the first readable;
/// 4. a format 1 store (all text) opens, reads, and is compacted into format 2;
/// 5. a rolled-back write forgets the dictionary it trained;
/// 6. a damaged frame is a storage error, never a wrong record.
final class RecordCompressionTests: XCTestCase {
    private static let words = ["soft", "cotton", "shirt", "blue", "kitchen", "knife", "steel", "garden", "hose", "leather",
                                "wallet", "running", "shoes", "organic", "coffee", "beans", "wireless", "headphones", "oak", "table"]

    /// A product record like the benchmarks' catalogue: shared keys, words from a small vocabulary.
    static func product(_ n: Int) -> [UInt8] {
        var state = UInt64(n) &* 0x9E37_79B9_7F4A_7C15 | 1
        func word() -> String {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return words[Int(state % UInt64(words.count))]
        }
        let description = (0..<40).map { _ in word() }.joined(separator: " ")
        let text = #"{"objectID":"p\#(n)","name":"\#(word()) \#(word())","description":"\#(description)","brand":"\#(word())","price":\#(n % 500).5,"in_stock":true}"#
        return Array(text.utf8)
    }

    private func storedJSON(_ store: IndexStore, _ objectID: String) throws -> [UInt8] {
        let statement = try store.connection.prepare("SELECT body FROM records WHERE objectID = ?1")
        statement.bind(1, objectID)
        XCTAssertTrue(try statement.step(), "\(objectID) is stored")
        return try store.decompressor.withJSON(statement, column: 0) { Array($0) }
    }

    private func kinds(_ store: IndexStore) throws -> [String: Int] {
        let statement = try store.connection.prepare("SELECT typeof(body), count(*) FROM records GROUP BY 1")
        var kinds: [String: Int] = [:]
        while try statement.step() { kinds[statement.string(0)] = Int(statement.int64(1)) }
        return kinds
    }

    private func write(_ store: IndexStore, _ records: [(String, [UInt8])]) throws {
        try store.write(now: 1) { () throws(BackendError) in
            for (objectID, body) in records { _ = try store.upsert(objectID: objectID, body: body) }
        }
    }

    private func compactAll(_ store: IndexStore) throws {
        var steps = 0
        while try store.compactRecords(batch: 300) { steps += 1; XCTAssertLessThan(steps, 1000) }
    }

    func testEveryKindOfRecordComesBackByteForByte() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0)
        try write(store, (0..<RecordSample.records + 10).map { ("p\($0)", Self.product($0)) })
        XCTAssertEqual(store.compressor.dictionaryID, 1, "the write that filled the sample trained a dictionary")

        var random = SystemRandomNumberGenerator()
        let noise = (0..<20_000).map { _ in "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/".randomElement(using: &random)! }
        let large = (0..<60_000).map { Self.product($0 % 3000) }.reduce(into: [UInt8]()) { $0 += $1.prefix(200) }
        let special: [(String, String)] = [
            ("empty", #"{}"#),
            ("tiny", #"{"objectID":"tiny"}"#),
            ("unicode", #"{"objectID":"unicode","name":"Crème brûlée 東京 🍮 e\u0301","z":1,"a":[{"ü":"\u0000\n"}]}"#),
            ("order", #"{"z":1,"y":{"b":2,"a":1},"objectID":"order","x":[3,2,1]}"#),
            ("noise", #"{"objectID":"noise","blob":"\#(String(noise))"}"#),
            ("large", #"{"objectID":"large","text":"\#(String(decoding: large, as: UTF8.self).replacingOccurrences(of: "\"", with: "'"))"}"#),
        ]
        try write(store, special.map { ($0.0, Array($0.1.utf8)) })
        XCTAssertGreaterThan(special[5].1.utf8.count, 10 << 20, "a very large record")
        for (objectID, text) in special {
            XCTAssertEqual(try storedJSON(store, objectID), Array(text.utf8), objectID)
        }
        XCTAssertEqual(try storedJSON(store, "p2005"), Self.product(2005))

        let reopened = try IndexStore(path: path, name: "x", now: 0)
        let pool = RecordReaderPool(path: path, indexName: "x")
        for (objectID, text) in special {
            XCTAssertEqual(try storedJSON(reopened, objectID), Array(text.utf8), objectID)
            let expected = try XCTUnwrap(JSONParser.parse(text))
            let read = try pool.withSource { (source) throws(BackendError) in try source.record(objectID: objectID) }
            XCTAssertEqual(read.map(JSON.object), expected, "the reader's copy of \(objectID)")
        }
        let browsed = try pool.withSource { (source) throws(BackendError) in try source.browse(after: nil, limit: 5000, matches: nil) }
        XCTAssertEqual(browsed.records.count, RecordSample.records + 10 + special.count)
        let all = try reopened.allRecords()
        XCTAssertEqual(Array(all).count, RecordSample.records + 10 + special.count)
        XCTAssertNil(all.failure)
    }

    func testRecordsWrittenBeforeTheDictionaryAreCompactedAndTheFileShrinks() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0)
        for start in stride(from: 0, to: 4000, by: 500) {
            try write(store, (start..<start + 500).map { ("p\($0)", Self.product($0)) })
        }
        XCTAssertEqual(try kinds(store), ["text": RecordSample.records - 1, "blob": 4000 - RecordSample.records + 1])
        try store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try fileSize(path)
        let generation = store.generation

        try compactAll(store)
        XCTAssertEqual(try kinds(store), ["blob": 4000])
        XCTAssertEqual(store.generation, generation, "the JSON is unchanged, so the search files stay valid")
        XCTAssertLessThan(try fileSize(path), before * 2 / 3, "the pages the text rows held went back to the file system")
        for n in [0, 1998, 1999, 3999] {
            XCTAssertEqual(try storedJSON(store, "p\(n)"), Self.product(n))
        }
        XCTAssertFalse(try store.compactRecords(), "nothing left to do")
    }

    /// A new store vacuums incrementally, so the compaction after its first records gives their pages back
    /// without the full `VACUUM` an old store needs once (which rewrites the whole file under the index's write
    /// lock: after a 1M-record import, the 241 MiB file, 1.5 s of CPU and up to 65 MiB left on the heap).
    /// SQLite fixes the mode when it first writes the file's header, which switching the journal to WAL does.
    func testANewStoreVacuumsIncrementally() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0)
        let mode = try store.connection.prepare("PRAGMA auto_vacuum")
        _ = try mode.step()
        XCTAssertEqual(mode.int64(0), 2, "incremental from the start")
        mode.reset()
        store.close()
        let reopened = try IndexStore(path: path, name: "x", now: 0)
        let again = try reopened.connection.prepare("PRAGMA auto_vacuum")
        _ = try again.step()
        XCTAssertEqual(again.int64(0), 2, "and after reopening")
    }

    func testTheFileIsRepackedOnlyWhenTheTextRowsWereAQuarterOfItOrMore() {
        var state = RecordCompactionState()
        state.rawThrough = 1_999
        XCTAssertTrue(state.repacks(rows: 4_000), "a small index")
        XCTAssertTrue(state.repacks(rows: 7_996))
        XCTAssertFalse(state.repacks(rows: 8_000))
        XCTAssertFalse(state.repacks(rows: 1_000_000), "a large import: its whole free pages only")
        state.rawThrough = 3_000
        XCTAssertTrue(state.repacks(rows: 3_000), "a format 1 store: every row was text")
    }

    func testASecondDictionaryLeavesRowsCompressedWithTheFirstReadable() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0)
        try write(store, (0..<2500).map { ("p\($0)", Self.product($0)) })
        var sample = RecordSample()
        for n in 10_000..<(10_000 + RecordSample.records) { sample.add(Array(Self.product(n).reversed())) }
        try store.write(now: 2) { () throws(BackendError) in XCTAssertTrue(try store.saveDictionary(trainedOn: sample)) }
        XCTAssertEqual(store.compressor.dictionaryID, 2)
        try write(store, (2500..<3000).map { ("p\($0)", Self.product($0)) })
        try compactAll(store)

        let reopened = try IndexStore(path: path, name: "x", now: 0)
        XCTAssertEqual(reopened.compressor.dictionaryID, 2, "the newest dictionary compresses")
        let ids = try reopened.connection.prepare("SELECT DISTINCT substr(body, 1, 1) FROM records")
        var tags: Set<Int64> = []
        while try ids.step() { tags.insert(try ids.withBlob(0) { Int64($0.first ?? 0) }) }
        XCTAssertEqual(tags, [1, 2], "rows of both dictionaries")
        for n in [0, 1999, 2000, 2499, 2500, 2999] {
            XCTAssertEqual(try storedJSON(reopened, "p\(n)"), Self.product(n))
        }
    }

    func testAFormat1StoreOpensReadsAndIsCompacted() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        do {
            // What format 1 wrote: text bodies, no dictionaries, no auto-vacuum.
            let old = try SQLiteConnection(path: path, readOnly: false)
            try old.execute("""
                PRAGMA journal_mode=WAL;
                CREATE TABLE records(docID INTEGER PRIMARY KEY, objectID TEXT NOT NULL UNIQUE, body TEXT NOT NULL);
                CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
                INSERT INTO meta VALUES('schemaVersion', 1), ('name', 'old'), ('generation', 7), ('createdAt', 1), ('updatedAt', 2);
                """)
            let insert = try old.prepare("INSERT INTO records(objectID, body) VALUES(?1, ?2)")
            try old.transaction { () throws(BackendError) in
                for n in 0..<3000 {
                    insert.bind(1, "p\(n)")
                    insert.bind(2, utf8: Self.product(n))
                    try insert.run()
                }
            }
            try old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            old.close()
        }
        let before = try fileSize(path)
        let store = try IndexStore(path: path, name: "ignored", now: 0)
        XCTAssertEqual(store.name, "old")
        XCTAssertEqual(store.generation, 7)
        XCTAssertEqual(try storedJSON(store, "p42"), Self.product(42), "text rows read as they are")
        XCTAssertNil(store.compressor.dictionaryID)

        try compactAll(store)
        XCTAssertEqual(try kinds(store), ["blob": 3000])
        XCTAssertEqual(store.generation, 7)
        let version = try store.connection.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'")
        _ = try version.step()
        XCTAssertEqual(version.int64(0), 2)
        let vacuum = try store.connection.prepare("PRAGMA auto_vacuum")
        _ = try vacuum.step()
        XCTAssertEqual(vacuum.int64(0), 2, "incremental auto-vacuum is on from now on")
        XCTAssertLessThan(try fileSize(path), before / 2)
        store.close()

        let reopened = try IndexStore(path: path, name: "ignored", now: 0)
        for n in [0, 1500, 2999] {
            XCTAssertEqual(try storedJSON(reopened, "p\(n)"), Self.product(n))
        }
    }

    func testARolledBackWriteForgetsTheDictionaryItTrained() throws {
        let directory = TemporaryDirectory()
        let store = try IndexStore(path: directory.path + "/records.sqlite", name: "x", now: 0)
        XCTAssertThrowsError(try store.write(now: 1) { () throws(BackendError) in
            for n in 0..<2500 { _ = try store.upsert(objectID: "p\(n)", body: Self.product(n)) }
            throw BackendError.invalidRecord(position: "record 2501", reason: "test")
        })
        XCTAssertNil(store.compressor.dictionaryID)
        try write(store, [("a", Self.product(1))])
        XCTAssertEqual(try kinds(store), ["text": 1], "no dictionary: stored as text")
        XCTAssertEqual(try storedJSON(store, "a"), Self.product(1))
    }

    func testADamagedFrameIsAStorageErrorNotAWrongRecord() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0)
        try write(store, (0..<2500).map { ("p\($0)", Self.product($0)) })
        let damage = try store.connection.prepare("""
            UPDATE records SET body = substr(body, 1, 20) || X'5A' || substr(body, 22) WHERE objectID = 'p2400'
            """)
        try damage.run()
        let pool = RecordReaderPool(path: path, indexName: "x")
        XCTAssertThrowsError(try pool.withSource { (source) throws(BackendError) in try source.record(objectID: "p2400") }) { error in
            guard case BackendError.storage = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try storedJSON(store, "p2401"), Self.product(2401))
    }

}
