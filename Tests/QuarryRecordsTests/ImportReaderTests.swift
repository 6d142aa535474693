import QuarryJSON
import XCTest
@testable import QuarryRecords
import QuarrySearchContract

/// The streaming readers:
/// 1. a JSON array with strings holding brackets, quotes and escapes splits into its elements;
/// 2. a malformed element is reported with its record number and reading goes on;
/// 3. a broken array (no '[', not closed, trailing data) is fatal;
/// 4. NDJSON reports line and column; blank lines and CRLF are fine;
/// 5. CSV follows RFC 4180 quoting and the documented number rule;
/// 6. reading ahead on a thread yields the same items, error and progress as reading in place.
final class ImportReaderTests: XCTestCase {
    let directory = ImportFiles()

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }

    func items(_ format: ImportFormat, _ text: String) throws -> [ImportItem] {
        var reader = try format.reader(path: directory.file("input", contents: text))
        var items: [ImportItem] = []
        while let item = try reader.next() { items.append(item) }
        return items
    }

    func values(_ items: [ImportItem]) -> [JSON] {
        items.compactMap { if case .value(let value, _, _) = $0 { value } else { nil } }
    }

    func invalid(_ items: [ImportItem]) -> [String] {
        items.compactMap { if case .invalid(let position, let reason) = $0 { "\(position): \(reason)" } else { nil } }
    }

    func testJSONArraySplitsElementsAwareOfStrings() throws {
        let text = "\u{FEFF}[ {\"objectID\":\"a\",\"t\":\"x],}{\\\"[\"} ,\n{\"objectID\":2,\"n\":[1,[2]]}, \"s]\" , 7 ]\n"
        let read = try items(.json, text)
        XCTAssertEqual(values(read), [
            ["objectID": "a", "t": "x],}{\"["], ["objectID": 2, "n": [1, [2]]], "s]", 7,
        ])
        XCTAssertTrue(try items(.json, " [ ] ").isEmpty)
    }

    func testAJSONFileOfConcatenatedObjectsIsAStream() throws {
        let read = try items(.json, "{\"a\": 1}\n{\n  \"a\": {\"b\": \"}\"}\n}{\"a\":x}\n\n")
        XCTAssertEqual(values(read), [["a": 1], ["a": ["b": "}"]]])
        XCTAssertEqual(invalid(read).count, 1)
        XCTAssertTrue(invalid(read)[0].hasPrefix("record 3: "), invalid(read)[0])
    }

    func testJSONArrayReportsABadElementAndGoesOn() throws {
        let read = try items(.json, #"[{"a":1},{"a":tru},{"a":3}]"#)
        XCTAssertEqual(values(read), [["a": 1], ["a": 3]])
        XCTAssertEqual(invalid(read).count, 1)
        XCTAssertTrue(invalid(read)[0].hasPrefix("record 2: "), invalid(read)[0])
    }

    func testJSONArrayStructureErrorsAreFatal() throws {
        for text in [#""just a string""#, #"[{"a":1}"#, #"[{"a":1},]"#, #"[{"a":1}] x"#, #"[{"a":"open]"#] {
            XCTAssertThrowsError(try items(.json, text), text) { error in
                guard case BackendError.invalidRecord = error else { return XCTFail("\(error)") }
            }
        }
    }

    func testNDJSONPositions() throws {
        let read = try items(.ndjson, "{\"a\":1}\r\n\n  \n{\"a\":2}\n{\"a\" 3}\n[1]")
        XCTAssertEqual(values(read), [["a": 1], ["a": 2], [1]])
        XCTAssertEqual(invalid(read).count, 1)
        XCTAssertTrue(invalid(read)[0].hasPrefix("line 5, column 6: "), invalid(read)[0])
    }

    /// Every format, batch sizes that do and do not divide the item count, a fatal error in the
    /// middle, and a reader released before its end.
    func testReadingAheadYieldsWhatReadingInPlaceDoes() throws {
        func rendered(_ reader: inout any ImportReader) -> [String] {
            var out: [String] = []
            do {
                while let item = try reader.next() {
                    switch item {
                    case .value(let value, let position, let text):
                        out.append("\(position) \(JSONWriter.string(value)) \(text.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
                    case .invalid(let position, let reason): out.append("\(position) invalid: \(reason)")
                    }
                    out.append("at \(reader.bytesRead) of \(reader.totalBytes)")
                }
            } catch {
                out.append("error: \(error)")
            }
            out.append("ended at \(reader.bytesRead)")
            return out
        }
        let lines = (1...1_000).map { $0 % 97 == 0 ? #"{"a": tru}"# : #"{"objectID": "\#($0)", "n": \#($0)}"# }
        let files: [(ImportFormat, String)] = [
            (.ndjson, lines.joined(separator: "\n")),
            (.json, "[" + (1...700).map { #"{"n": \#($0)}"# }.joined(separator: ",") + "]"),
            (.json, "[" + (1...700).map { #"{"n": \#($0)}"# }.joined(separator: ",") + ", x]"),
            (.csv, "objectID,n\n" + (1...500).map { "\($0),\($0 * 2)" }.joined(separator: "\n")),
        ]
        for (format, text) in files {
            let path = directory.file("input.\(format)", contents: text)
            var plain = try format.reader(path: path)
            let expected = rendered(&plain)
            XCTAssertGreaterThan(expected.count, 500)
            for (batchSize, capacity) in [(1, 1), (7, 2), (256, 8), (5_000, 1)] {
                var ahead: any ImportReader = ReadAheadImportReader(try format.reader(path: path), batchSize: batchSize, capacity: capacity)
                XCTAssertEqual(rendered(&ahead), expected, "\(format), batches of \(batchSize)")
            }
            // Released after a few items, with the thread blocked on a full handoff: nothing hangs.
            var early: any ImportReader = ReadAheadImportReader(try format.reader(path: path), batchSize: 3, capacity: 1)
            XCTAssertNotNil(try early.next())
        }
    }

    func testCSVQuotingAndNumbers() throws {
        let text = "objectID,name,price,zip,note\r\n"
            + "1,\"Smith, \"\"J\"\"\",12.50,02134,\"two\nlines\"\r\n"
            + "2,plain,-3,0,\n"
            + "\n"
            + "3,x,1e5,+1,007\n"
        let read = try items(.csv, text)
        XCTAssertEqual(values(read), [
            ["objectID": "1", "name": "Smith, \"J\"", "price": 12.5, "zip": "02134", "note": "two\nlines"],
            ["objectID": "2", "name": "plain", "price": -3, "zip": 0],
            ["objectID": "3", "name": "x", "price": "1e5", "zip": "+1", "note": "007"],
        ])
        XCTAssertEqual(invalid(read), [])
    }

    func testCSVRowErrorsNameTheirLine() throws {
        let text = "a,b\n1,2\n3\n\"x\"y,4\n5,6\n"
        let read = try items(.csv, text)
        XCTAssertEqual(values(read), [["a": 1, "b": 2], ["a": 5, "b": 6]])
        XCTAssertEqual(invalid(read), [
            "line 3: has 1 fields; the header has 2",
            "line 4, column 1: text 'y,4' follows the closing quote of a quoted field; a quote inside a quoted field is written twice (\"\")",
        ])
    }

    /// A quote left open swallows the rows after it up to the next quote: the error names the line
    /// where it opened and says what is missing, not what follows the quote that closed it.
    func testCSVUnclosedQuoteNamesTheLineWhereItOpened() throws {
        let text = "objectID,name,note\n1,\"open,x\n2,b,c\n3,\"quoted\",d\n4,e,f\n"
        let read = try items(.csv, text)
        XCTAssertEqual(invalid(read), [
            "line 2, column 2: the quote that opens this field is not closed on this line; the next quote, on line 4, "
                + "is followed by 'quoted\",d': a closing quote is probably missing",
        ])
        XCTAssertEqual(values(read), [["objectID": "4", "name": "e", "note": "f"]])
        // The row's first field spans two lines; the quote of its second opens on line 3.
        let never = try items(.csv, "a,b\n\"x\ny\",\"open\nz\n")
        XCTAssertEqual(invalid(never), ["line 3, column 2: the quote that opens this field is never closed (the file ends inside it)"])
    }

    /// RFC 4180: a quote may appear only in a quoted field, doubled. A stray one is an error that
    /// skips its row only, so `skipInvalid` imports the rest.
    func testCSVStrayQuoteInAnUnquotedFieldIsAnError() throws {
        let read = try items(.csv, "objectID,height\n1,5'10\"\n2,\"5'10\"\"\"\n3,6'\n")
        XCTAssertEqual(invalid(read), [
            "line 2, column 2: a quote inside an unquoted field; quote the whole field and write each quote in it twice (\"5'10\"\"\" for 5'10\")",
        ])
        XCTAssertEqual(values(read), [["objectID": "2", "height": "5'10\""], ["objectID": "3", "height": "6'"]])
    }

    func testFormatIsGuessedFromTheExtension() {
        XCTAssertEqual(ImportFormat(guessingFrom: "/a/b.JSON"), .json)
        XCTAssertEqual(ImportFormat(guessingFrom: "x.jsonl"), .ndjson)
        XCTAssertEqual(ImportFormat(guessingFrom: "x.csv"), .csv)
        XCTAssertNil(ImportFormat(guessingFrom: "/a.b/records"))
    }
}
