import Foundation
@testable import QuarryTypesense
import XCTest

/// `initialize` reports exactly the differences protocol/backends.md documents.
final class DifferencesDocumentedTests: XCTestCase {
    func testEveryReportedDifferenceIsATableRowAndEveryRowIsReported() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("protocol/backends.md"), encoding: .utf8)
        let rows = page.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
        XCTAssertEqual(rows.sorted(), TypesenseDifferences.identifiers.sorted())
        XCTAssertEqual(Set(rows).count, rows.count, "an identifier is documented twice")
    }
}
