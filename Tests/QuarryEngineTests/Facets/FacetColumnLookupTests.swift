@testable import QuarryEngine
import XCTest

/// A facet column finds values by its index of texts and its case-folded order:
/// 1. `id(exactly:)` finds the one value spelled so, and nothing for a spelling no value has;
/// 2. `ids(ignoringCase:)` finds every value equal ignoring case, ascending, as a scan would;
/// 3. single-valued columns keep two-byte ids per document, and none past 65,534 values;
/// 4. `id(text:hash:)` (the text index merges across segments use) finds what `id(exactly:)` finds.
final class FacetColumnLookupTests: XCTestCase {
    func testLookupsAgreeWithAScanOfTheValues() {
        var random = SystemRandomNumberGenerator()
        let letters = Array("abAB√©É")
        var seen = Set<String>()
        var values: [String] = []
        while values.count < 300 {
            let text = String((0..<Int.random(in: 0...4, using: &random)).map { _ in letters.randomElement(using: &random) ?? "a" })
            if seen.insert(text).inserted { values.append(text) }
        }
        let column = FacetColumn(name: "f", values: values, numericFlags: [UInt8](repeating: 0, count: values.count),
                                 starts: StoredArray([UInt32](repeating: 0, count: 1)), ids: StoredArray([UInt32]()))
        for probe in values + ["zz", "ABAB√", "é", "e\u{301}"] {
            XCTAssertEqual(column.id(exactly: probe), values.firstIndex(of: probe).map { UInt32($0) }, probe)
            XCTAssertEqual(column.id(text: probe, hash: probe.hashValue), values.firstIndex(of: probe), probe)
            let expected = values.indices.filter { values[$0].lowercased() == probe.lowercased() }.map { UInt32($0) }
            XCTAssertEqual(column.ids(ignoringCase: probe), expected, probe)
        }
    }

    func testSingleValuedColumnsKeepTwoByteIdsWhileTheyFit() {
        func column(values: Int) -> FacetColumn {
            let ids = (0..<values).map { UInt32($0) }
            return FacetColumn(name: "f", values: ids.map { "v\($0)" }, numericFlags: [UInt8](repeating: 0, count: values),
                               starts: StoredArray((0...values).map { UInt32($0) }), ids: StoredArray(ids))
        }
        let narrow = column(values: 1_000)
        XCTAssertEqual(narrow.singles.count, 1_000)
        XCTAssertEqual(narrow.singles[999], 999)
        let wide = column(values: 70_000)
        XCTAssertTrue(wide.isSingleValued)
        XCTAssertTrue(wide.singles.isEmpty)
    }
}
