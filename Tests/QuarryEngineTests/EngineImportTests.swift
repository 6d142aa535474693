import QuarryJSON
import XCTest
import QuarrySync
@testable import QuarryEngine
import QuarrySearchContract

/// importRecords:
/// 1. imports JSON, NDJSON and CSV (format from the extension), with settings in the same transaction;
/// 2. a bad record in the middle leaves an existing index exactly as it was, and removes an index it created;
/// 3. skipInvalid imports the rest and counts and explains the skipped ones;
/// 4. progress ends with every byte and record counted.
final class EngineImportTests: EngineTestCase {

    func testImportsEachFormat() throws {
        let engine = try Engine(directory: directory.path + "/data/nested", log: { _ in })
        let json = directory.file("talks.json", contents: #"[{"objectID":"1","name":"alpha"},{"objectID":2,"name":"beta"}]"#)
        let receipt = try engine.importRecords(
            index: "talks", from: json, settings: ["attributesToIndex": ["name"], "version": 1])
        XCTAssertEqual(receipt.imported, 2)
        XCTAssertEqual(receipt.skipped, 0)
        XCTAssertEqual(try engine.settings(index: "talks")["searchableAttributes"], ["name"])
        let ndjson = directory.file("more.ndjson", contents: "{\"objectID\":\"3\",\"name\":\"gamma\"}\n{\"name\":\"delta\"}\n")
        XCTAssertEqual(try engine.importRecords(index: "talks", from: ndjson).imported, 2)
        let csv = directory.file("more.csv", contents: "objectID,name\n1,alpha two\n")
        XCTAssertEqual(try engine.importRecords(index: "talks", from: csv).imported, 1)
        XCTAssertEqual(try engine.search(index: "talks", parameters: [:]).nbHits, 4, "objectID 1 was replaced")
        XCTAssertEqual(try engine.search(index: "talks", parameters: ["query": "two"]).nbHits, 1)
        XCTAssertThrowsError(try engine.importRecords(index: "talks", from: directory.file("x.txt", contents: "")))
    }

    /// An NDJSON line whose objectID is already a string is stored as the file wrote it (spaces,
    /// escapes, number spellings and repeated keys included); the others are encoded again. Either
    /// way a record reads back as the parsed line, with its objectID as a string.
    func testNDJSONLinesReadBackAsParsed() throws {
        let engine = try Engine(directory: directory.path + "/data", log: { _ in })
        let lines = [
            #"  { "objectID" : "a", "name" : "caf\u00e9 \"bar\"", "price" : 1.50, "n" : 2, "n" : 3 , "tags":[ ] }  "#,
            #"{"objectID": 7, "name": "seven"}"#,
            #"{"name": "generated"}"#,
        ]
        let path = directory.file("spaced.ndjson", contents: lines.joined(separator: "\r\n"))
        XCTAssertEqual(try engine.importRecords(index: "i", from: path).imported, 3)
        let found = try engine.getObjects(["a", "7"], index: "i")
        XCTAssertEqual(found.map { $0.map { JSONWriter.string(.object($0)) } }, [
            #"{"objectID":"a","name":"café \"bar\"","price":1.5,"n":3,"tags":[]}"#,
            #"{"objectID":"7","name":"seven"}"#,
        ])
        XCTAssertEqual(try engine.search(index: "i", parameters: ["query": "cafe"]).nbHits, 1)
        let browsed = try engine.search(index: "i", parameters: ["query": "generated"])
        XCTAssertEqual(browsed.nbHits, 1)
        XCTAssertEqual(browsed["hits"]?.arrayValue?.first?["objectID"]?.stringValue?.count, 36,
                       "a generated objectID is stored with the record")
    }

    func testABadRecordInTheMiddleChangesNothing() throws {
        let engine = try Engine(directory: directory.path + "/data", log: { _ in })
        _ = try engine.saveObjects([record("keep", ["name": "kept"])], index: "i")
        let before = engine.listIndices()
        let lines = (1...50).map { #"{"objectID":"\#($0)","name":"n\#($0)"}"# } + [#"{"objectID":true}"#]
            + (51...60).map { #"{"objectID":"\#($0)"}"# }
        let path = directory.file("bad.ndjson", contents: lines.joined(separator: "\n"))
        XCTAssertThrowsError(try engine.importRecords(index: "i", from: path)) {
            XCTAssertEqual($0 as? BackendError, .invalidRecord(
                position: "line 51", reason: "objectID must be a non-empty string or an integer, not boolean"))
        }
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 1)
        XCTAssertEqual(engine.listIndices().map(\.entries), before.map(\.entries))
        XCTAssertEqual(try engine.saveObjects([], index: "i").taskID, 2, "the failed import committed nothing")

        let broken = directory.file("broken.json", contents: #"[{"objectID":"1"},{"objectID":"2"}"#)
        XCTAssertThrowsError(try engine.importRecords(index: "fresh", from: broken))
        XCTAssertEqual(engine.listIndices().map(\.name), ["i"], "an index the failed import created is gone")
    }

    func testSkipInvalidCountsAndExplains() throws {
        let engine = try Engine(directory: directory.path + "/data", log: { _ in })
        let path = directory.file("mixed.json", contents: #"[{"objectID":"1"}, 5, {"objectID":"2"}, {"objectID":[]}, {"x":nul}, {"objectID":"3"}]"#)
        let progress = Locked<[ImportProgress]>([])
        let receipt = try engine.importRecords(
            index: "i", from: path, skipInvalid: true, progress: { update in progress.withLock { $0.append(update) } })
        XCTAssertEqual(receipt.imported, 3)
        XCTAssertEqual(receipt.skipped, 3)
        XCTAssertEqual(receipt.skippedReasons.count, 3)
        XCTAssertTrue(receipt.skippedReasons[0].hasPrefix("record 2: a record must be a JSON object"), receipt.skippedReasons[0])
        XCTAssertTrue(receipt.skippedReasons[2].hasPrefix("record 5: "), receipt.skippedReasons[2])
        XCTAssertEqual(try engine.search(index: "i", parameters: [:]).nbHits, 3)
        let last = try XCTUnwrap(progress.withLock { $0.last })
        XCTAssertEqual(last.records, 3)
        XCTAssertEqual(last.skipped, 3)
        XCTAssertEqual(last.bytesRead, last.totalBytes)
    }
}
