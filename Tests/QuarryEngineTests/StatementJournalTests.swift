import Foundation
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// A write's upserts keep their statement journals in memory (`IndexStore.init`, `temp_store`): once one
/// statement's journal outgrew 64 KiB, SQLite kept it in a temporary file for the rest of the transaction, and
/// every later upsert wrote its pages' prior images there (a 300k-record import: 1.5 GB).
final class StatementJournalTests: XCTestCase {
    /// Bytes this thread has handed to write calls so far (`wchar` of /proc/thread-self/io).
    private func writtenByThisThread() throws -> Int {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("wchar:") })
        return try XCTUnwrap(Int(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    func testUpsertsAfterALargeReplacementWriteNoJournalFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/records.sqlite"
        let store = try IndexStore(path: path, name: "x", now: 0)
        // Random text does not compress: its row spills to overflow pages, whose prior images (256 KiB)
        // the replacing statement must journal.
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        func large() -> [UInt8] {
            Array(#"{"objectID":"large","blob":""#.utf8) + (0..<256 << 10).map { _ in alphabet.randomElement(using: &random) ?? 0 }
                + Array(#""}"#.utf8)
        }
        try store.write(now: 1) { () throws(BackendError) in
            _ = try store.upsert(objectID: "large", body: large())
            for n in 0..<3000 { _ = try store.upsert(objectID: "p\(n)", body: RecordCompressionTests.product(n)) }
        }
        let before = try writtenByThisThread()
        try store.write(now: 2) { () throws(BackendError) in
            _ = try store.upsert(objectID: "large", body: large())
            // Each of these changes a table page and an index page that existed before it.
            for n in 0..<3000 { _ = try store.upsert(objectID: "p\(n)", body: RecordCompressionTests.product(n + 1)) }
        }
        let written = try writtenByThisThread() - before
        let stored = try fileSize(path) + ((try? fileSize(path + "-wal")) ?? 0)
        // The log gets each changed page once: half the store when this was written. A journal file also
        // took the prior images of the two pages each upsert changes: five times the store.
        XCTAssertLessThan(written, 2 * stored, "wrote \(written) bytes for a store of \(stored)")
    }
}
