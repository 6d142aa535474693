import QuarryJSON
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// The SQLite store:
/// 1. records, settings and the generation survive closing and reopening;
/// 2. every write transaction bumps the generation by one;
/// 3. a failing transaction writes nothing and leaves the generation as it was;
/// 4. upserting an objectID again keeps its docID, in the write that stored it or a later one, and new
///    objectIDs take docIDs above every stored one; deleting returns it;
/// 5. readers fetch committed records by docID.
final class StorageTests: XCTestCase {
    func testRoundTripAcrossReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        var settings = IndexSettings()
        settings.hitsPerPage = 7
        settings.unsupported["ignorePlurals"] = true
        do {
            let store = try IndexStore(path: path, name: "books", now: 1000)
            try store.write(now: 2000) { () throws(BackendError) in
                _ = try store.upsert(objectID: "a", body: JSONWriter.encode(["objectID": "a", "title": "Dune"]))
                try store.replaceSettings(settings)
            }
            store.close()
        }
        let store = try IndexStore(path: path, name: "ignored", now: 3000)
        XCTAssertEqual(store.name, "books")
        XCTAssertEqual(store.generation, 1)
        XCTAssertEqual(store.createdAt, 1000)
        XCTAssertEqual(store.updatedAt, 2000)
        XCTAssertEqual(store.settings, settings)
        let found = try XCTUnwrap(store.record(objectID: "a"))
        XCTAssertEqual(found.1["title"], "Dune")
    }

    /// A large write gets a page cache large enough not to rewrite spilled pages, and hands it back
    /// when it ends.
    func testALargeWriteUsesALargeCacheAndReleasesIt() throws {
        let directory = TemporaryDirectory()
        let store = try IndexStore(path: directory.path + "/records.sqlite", name: "x", now: 0)
        // Text zstd cannot shrink (records are stored compressed), so that 12 MB are written.
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/".utf8)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func filler() -> String {
            String(decoding: (0..<600).map { _ in
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                return alphabet[Int(state & 63)]
            }, as: UTF8.self)
        }
        var during = 0
        try store.write(now: 1) { () throws(BackendError) in
            for n in 0..<20_000 {
                _ = try store.upsert(objectID: "r\(n)", body: JSONWriter.encode(["objectID": .string("r\(n)"), "text": .string(filler())]))
            }
            during = store.connection.cacheBytes
        }
        XCTAssertGreaterThan(during, 8 << 20, "the 12 MB written stayed in a cache larger than SQLite's 2 MiB default")
        XCTAssertLessThan(store.connection.cacheBytes, 1 << 20, "the cache was released after the write")
        XCTAssertEqual(try store.count(), 20_000)
    }

    func testEveryWriteBumpsTheGenerationAndFailuresRollBack() throws {
        let directory = TemporaryDirectory()
        let store = try IndexStore(path: directory.path + "/records.sqlite", name: "x", now: 0)
        let first = try store.write(now: 1) { () throws(BackendError) in
            try store.upsert(objectID: "a", body: Array(#"{"objectID":"a","n":1}"#.utf8))
        }
        let again = try store.write(now: 2) { () throws(BackendError) in
            try store.upsert(objectID: "a", body: Array(#"{"objectID":"a","n":2}"#.utf8))
        }
        XCTAssertEqual(first, again, "an upsert of the same objectID keeps its docID")
        XCTAssertEqual(store.generation, 2)

        XCTAssertThrowsError(try store.write(now: 3) { () throws(BackendError) in
            _ = try store.upsert(objectID: "b", body: Array(#"{"objectID":"b"}"#.utf8))
            throw BackendError.invalidRecord(position: "record 2", reason: "test")
        })
        XCTAssertEqual(store.generation, 2)
        XCTAssertNil(try store.record(objectID: "b"), "the failed transaction wrote nothing")
        XCTAssertEqual(try store.count(), 1)

        let deleted = try store.write(now: 4) { () throws(BackendError) in try store.delete(objectID: "a") }
        XCTAssertEqual(deleted, first)
        XCTAssertEqual(store.generation, 3)
        XCTAssertEqual(try store.count(), 0)
    }

    /// An upsert inserts and replaces only when the insert found its objectID: the docID each returns must
    /// come from its own statement, however new and known objectIDs alternate (past the dictionary's
    /// sample too, when the bodies are compressed).
    func testUpsertsOfNewAndKnownObjectIDsReturnTheirOwnDocIDs() throws {
        let directory = TemporaryDirectory()
        let store = try IndexStore(path: directory.path + "/records.sqlite", name: "x", now: 0)
        func body(_ objectID: String, _ n: Int) -> [UInt8] {
            JSONWriter.encode(["objectID": .string(objectID), "n": .int(Int64(n)), "text": "a record long enough to compress"])
        }
        var expected: [String: (id: DocID, n: Int)] = [:]
        var next: DocID = 1
        for round in 0..<3 {
            try store.write(now: Int64(round + 1)) { () throws(BackendError) in
                for n in 0..<3_000 {
                    // Every third one names an earlier objectID (of this write or an earlier one), or a new one.
                    let serial = round * 3_000 + n
                    let objectID = n % 3 == 2 ? "r\((serial * 7_919) % serial)" : "r\(serial)"
                    let id = try store.upsert(objectID: objectID, body: body(objectID, serial))
                    if let known = expected[objectID] {
                        XCTAssertEqual(id, known.id, "\(objectID) keeps its docID")
                    } else {
                        XCTAssertEqual(id, next, "\(objectID) takes the next docID")
                        next += 1
                    }
                    expected[objectID] = (id, serial)
                }
            }
        }
        XCTAssertEqual(try store.count(), expected.count)
        XCTAssertGreaterThan(9_000 - expected.count, 1_000, "many upserts replaced a record")
        for (objectID, want) in expected {
            let stored = try XCTUnwrap(store.record(objectID: objectID))
            XCTAssertEqual(stored.0, want.id)
            XCTAssertEqual(stored.1["n"], .int(Int64(want.n)), "the last upsert of \(objectID) is the one stored")
        }
    }

    func testReadersSeeCommittedRecordsByDocID() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0)
        let id = try store.write(now: 1) { () throws(BackendError) in
            try store.upsert(objectID: "é", body: JSONWriter.encode(["objectID": "é", "tags": ["a", "b"]]))
        }
        let pool = RecordReaderPool(path: path, indexName: "x")
        let fetched = try pool.withSource { (source) throws(BackendError) in (try source.record(id), try source.record(id + 100)) }
        XCTAssertEqual(fetched.0?["tags"], ["a", "b"])
        XCTAssertNil(fetched.1)
        let records = try store.allRecords()
        XCTAssertEqual(Array(records).map(\.0), [id])
        XCTAssertNil(records.failure)
    }

    func testALargeWriteLeavesNoLargeLogBehind() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0, walLimit: 256 << 10)
        let text = String(repeating: "lorem ipsum ", count: 40)
        try store.write(now: 1) { () throws(BackendError) in
            for i in 0..<4_000 {
                _ = try store.upsert(objectID: "\(i)", body: JSONWriter.encode(["objectID": .string("\(i)"), "text": .string(text)]))
            }
        }
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        XCTAssertLessThanOrEqual(try XCTUnwrap(log), 256 << 10, "1.9 MB written in one transaction; the log was truncated after it")
        XCTAssertEqual(try store.count(), 4_000)
        let reopened = RecordReaderPool(path: path, indexName: "x")
        let fetched = try reopened.withSource { (source) throws(BackendError) in try source.record(DocID(1)) }
        XCTAssertNotNil(fetched, "the records are in the database file")
    }
}
