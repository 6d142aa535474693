import QuarryJSON
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// Records compressed off the writer's thread (`PreparedRecordBodies`, an import's reading thread):
/// 1. they are stored compressed and come back byte for byte, whatever the record;
/// 2. a body prepared with a dictionary the store no longer uses (one trained in a write that rolled back,
///    whose id the next dictionary reuses) is compressed again by the writer, never bound as it is;
/// 3. a body prepared before the index had a dictionary is sampled and compressed by the writer as before.
final class PreparedRecordBodyTests: XCTestCase {
    private func stored(_ store: IndexStore, _ objectID: String) throws -> (kind: String, json: [UInt8]) {
        let statement = try store.connection.prepare("SELECT typeof(body), body FROM records WHERE objectID = ?1")
        statement.bind(1, objectID)
        XCTAssertTrue(try statement.step(), "\(objectID) is stored")
        return (statement.string(0), try store.decompressor.withJSON(statement, column: 1) { Array($0) })
    }

    func testPreparedBodiesAreStoredCompressedAndComeBackByteForByte() throws {
        let directory = TemporaryDirectory()
        let store = try IndexStore(path: directory.path + "/records.sqlite", name: "x", now: 0)
        try store.write(now: 1) { () throws(BackendError) in
            for n in 0..<RecordSample.records { _ = try store.upsert(objectID: "p\(n)", body: RecordCompressionTests.product(n)) }
        }
        let dictionary = try XCTUnwrap(store.recordDictionary)
        var records: [JSONObject] = (0..<600).map { ["objectID": .string("q\($0)"), "name": .string("soft cotton shirt \($0)")] }
        records.append(["objectID": "accents", "name": "héllo wörld \u{0000} 日本語 🎉"])
        records.append(["objectID": "noise", "name": .string(String((0..<300).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! }))])
        records.append(["objectID": "large", "name": .string(String(repeating: "kitchen knife steel ", count: 200_000))])
        let bodies = PreparedRecordBodies(records, dictionary: dictionary)
        try store.write(now: 2) { () throws(BackendError) in
            for record in records {
                let body = bodies.next(record)
                XCTAssertTrue(body.dictionary === dictionary)
                _ = try store.upsert(objectID: record["objectID"]?.stringValue ?? "", prepared: body)
            }
        }
        for record in records {
            let (kind, json) = try stored(store, record["objectID"]?.stringValue ?? "")
            XCTAssertEqual(json, JSONWriter.encode(.object(record)))
            // The short non-ASCII record and the random one are not worth compressing: kept as text.
            if !["noise", "accents"].contains(record["objectID"]) { XCTAssertEqual(kind, "blob", "\(record["objectID"] ?? nil)") }
        }
    }

    func testABodyPreparedWithARolledBackDictionaryIsCompressedAgain() throws {
        let directory = TemporaryDirectory()
        let store = try IndexStore(path: directory.path + "/records.sqlite", name: "x", now: 0)
        var forgotten: RecordDictionary?
        XCTAssertThrowsError(try store.write(now: 1) { () throws(BackendError) in
            for n in 0..<RecordSample.records { _ = try store.upsert(objectID: "p\(n)", body: Array(#"{"kind":"first","n":\#(n)}"#.utf8)) }
            forgotten = store.recordDictionary
            throw BackendError.invalidRecord(position: "record 2001", reason: "test")
        })
        try store.write(now: 2) { () throws(BackendError) in
            for n in 0..<RecordSample.records { _ = try store.upsert(objectID: "p\(n)", body: RecordCompressionTests.product(n)) }
        }
        let stale = try XCTUnwrap(forgotten)
        XCTAssertEqual(store.recordDictionary?.id, stale.id, "the id was free again")
        XCTAssertFalse(store.recordDictionary === stale)
        let compressor = try RecordCompressor()
        try compressor.use(stale)
        let json = RecordCompressionTests.product(9999)
        let body = PreparedRecordBody(json: json, compressor: compressor)
        XCTAssertNotNil(body.blob)
        try store.write(now: 3) { () throws(BackendError) in _ = try store.upsert(objectID: "late", prepared: body) }
        XCTAssertEqual(try stored(store, "late").json, json)
    }

    func testABodyPreparedBeforeTheDictionaryIsSampledByTheWriter() throws {
        let directory = TemporaryDirectory()
        let store = try IndexStore(path: directory.path + "/records.sqlite", name: "x", now: 0)
        let records: [JSONObject] = (0..<(RecordSample.records + 300)).map {
            ["objectID": .string("p\($0)"), "name": .string("soft cotton shirt blue kitchen knife \($0)")]
        }
        let bodies = PreparedRecordBodies(records, dictionary: store.recordDictionary)
        try store.write(now: 1) { () throws(BackendError) in
            for record in records { _ = try store.upsert(objectID: record["objectID"]?.stringValue ?? "", prepared: bodies.next(record)) }
        }
        XCTAssertNotNil(store.recordDictionary, "the write that filled the sample trained a dictionary")
        let last = try stored(store, "p\(RecordSample.records + 299)")
        XCTAssertEqual(last.kind, "blob", "records after the training are compressed by the writer")
        XCTAssertEqual(last.json, JSONWriter.encode(.object(records.last ?? [:])))
    }
}
