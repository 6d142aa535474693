import Foundation
@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Columns are saved in their smallest exact form: one value id per document for single-valued facets,
/// `Float`s for numbers that are all exactly one, no geo starts without points; and read back the same.
final class CompactColumnsTests: XCTestCase {
    func testSingleValuedColumnsKeepOneIdPerDocument() {
        let single = FacetColumn(name: "brand", values: ["a", "b"], numericFlags: [0, 0],
                                 starts: StoredArray([0, 1, 1, 2]), ids: StoredArray([1, 0]))
        XCTAssertEqual(single.singles.array, [1, .max, 0])
        XCTAssertTrue(single.starts.isEmpty && single.ids.isEmpty)
        XCTAssertTrue(single.isSingleValued)
        XCTAssertEqual(single.documentCount, 3)
        XCTAssertEqual((0..<3).map { single.firstValue(of: $0) }, [1, nil, 0])
        XCTAssertEqual(documents(single), [[2], [0]])
        XCTAssertEqual(single.valueDocuments.starts.array, [0, 1, 2])

        let lists = FacetColumn(name: "tags", values: ["a", "b"], numericFlags: [0, 0],
                                starts: StoredArray([0, 2, 2, 3]), ids: StoredArray([1, 0, 0]))
        XCTAssertTrue(lists.singles.isEmpty)
        XCTAssertFalse(lists.isSingleValued)
        var held: [[Int]] = []
        for d in 0..<3 {
            var ids: [Int] = []
            lists.forEachValue(of: d) { ids.append($0) }
            held.append(ids)
        }
        XCTAssertEqual(held, [[1, 0], [], [0]])
        XCTAssertEqual(documents(lists), [[0, 2], [0]])

        let none = FacetColumn(name: "_tags", values: [], numericFlags: [], starts: StoredArray([0, 0, 0]), ids: StoredArray())
        XCTAssertTrue(none.singles.isEmpty && none.starts.isEmpty, "a column without values keeps nothing per document")
        XCTAssertEqual(none.documentCount, 2)
        XCTAssertNil(none.firstValue(of: 1))

        // Ids past what 16 bits hold stay lists even when single-valued.
        let many = 70_000
        let wide = FacetColumn(name: "sku", values: (0..<many).map { "v\($0)" }, numericFlags: [UInt8](repeating: 0, count: many),
                               starts: StoredArray((0...many).map { UInt32($0) }), ids: StoredArray((0..<many).map { UInt32($0) }))
        XCTAssertTrue(wide.singles.isEmpty)
        XCTAssertTrue(wide.isSingleValued)
        XCTAssertEqual(wide.firstValue(of: 69_999), 69_999)
    }

    func testTextColumnsKeepNumbersOnlyWhenSomeValueSpellsOne() {
        let tags = FacetColumn(name: "tags", values: ["red", "blue"], numericFlags: [0, 0],
                               starts: StoredArray([0, 1, 2]), ids: StoredArray([0, 1]))
        XCTAssertTrue(tags.numbers.isEmpty, "no number per value for a column without any")
        XCTAssertTrue(SegmentFilter.ids(tags, .number(12)).isEmpty)
        XCTAssertEqual(SegmentFilter.ids(tags, .string("RED")), [0])
        let sizes = FacetColumn(name: "size", values: ["red", "12", "12.0"], numericFlags: [0, 0, 1],
                                starts: StoredArray([0, 1, 2, 3]), ids: StoredArray([0, 1, 2]))
        XCTAssertEqual(sizes.numbers.count, 3)
        XCTAssertEqual(SegmentFilter.ids(sizes, .number(12)).sorted(), [1, 2])
        XCTAssertEqual(SegmentFilter.ids(sizes, .string("12")).sorted(), [1, 2])
    }

    func testNumbersTakeTheNarrowestFormThatHoldsEachExactly() {
        let counts = NumericColumn(path: "n", starts: StoredArray(), values: [4, 12, .nan, 20_000_001, -7])
        XCTAssertEqual(counts.numbers.integers.count, 5)
        XCTAssertTrue(counts.numbers.doubles.isEmpty && counts.numbers.floats.isEmpty)
        XCTAssertEqual(counts[3], 20_000_001)
        XCTAssertTrue(counts[2].isNaN, "no number reads back as NaN")
        let ratings = NumericColumn(path: "n", starts: StoredArray(), values: [4.5, .nan, 3, -0.0])
        XCTAssertEqual(ratings.numbers.floats.count, 4)
        XCTAssertTrue(ratings.numbers.doubles.isEmpty && ratings.numbers.integers.isEmpty)
        XCTAssertEqual(ratings[3].bitPattern, (-0.0).bitPattern, "a zero keeps its sign")
        for values in [[48.89, 3], [16_777_217.5], [1e300]] {
            let column = NumericColumn(path: "n", starts: StoredArray(), values: values)
            XCTAssertTrue(column.numbers.floats.isEmpty && column.numbers.integers.isEmpty, "\(values)")
            XCTAssertEqual((0..<column.count).map { column[$0] }, values)
        }
        let lowest = NumericColumn(path: "n", starts: StoredArray(), values: [-2_147_483_648])
        XCTAssertTrue(lowest.numbers.integers.isEmpty, "Int32.min stands for no number")
        XCTAssertEqual(lowest[0], -2_147_483_648)
    }

    func testCompactColumnsSurviveTheFileAndFilterTheSame() throws {
        let products: [JSONObject] = (0..<40).map { i in
            var product: JSONObject = ["objectID": .string("\(i)"), "name": .string("item \(i)"), "brand": .string("b\(i % 3)"),
                                       "price": .double(Double(i) + 0.89), "rating": .int(Int64(i % 5)), "tags": .array([.string("t\(i % 4)"), .string("all")])]
            if i % 7 == 0 { product["brand"] = nil }
            return product
        }
        let settings = IndexSettings.with {
            $0.searchableAttributes = [SearchableAttribute(paths: ["name"])]
            $0.attributesForFaceting = [FacetAttribute(attribute: "brand"), FacetAttribute(attribute: "tags"),
                                        FacetAttribute(attribute: "price"), FacetAttribute(attribute: "rating")]
            $0.customRanking = [CustomRankingCriterion(attribute: "rating", ascending: false)]
        }
        let fixture = SearchFixture(products, settings: settings)
        let path = NSTemporaryDirectory() + "compact-\(UUID().uuidString).qsi"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try fixture.index.write(to: path, generation: 1)
        let reopened = try SearchIndex.read(from: path, settings: settings).index
        for (old, new) in zip(fixture.index.segments, reopened.segments) {
            let brand = try XCTUnwrap(new.facets.column("brand")), tags = try XCTUnwrap(new.facets.column("tags"))
            XCTAssertTrue(brand.singles.isMapped && brand.ids.isEmpty, "a single-valued column is one id per document")
            XCTAssertEqual(brand.singles.array, try XCTUnwrap(old.facets.column("brand")).singles.array)
            XCTAssertTrue(tags.singles.isEmpty && tags.ids.isMapped)
            XCTAssertTrue(new.facets.geo.starts.isEmpty, "no points, no starts")
            let tagsColumn = try XCTUnwrap(new.facets.column("_tags"))
            XCTAssertTrue(tagsColumn.values.isEmpty && tagsColumn.singles.isEmpty)
            let price = try XCTUnwrap(new.facets.numericColumn("price")), rating = try XCTUnwrap(new.facets.numericColumn("rating"))
            XCTAssertTrue(price.numbers.floats.isEmpty && price.numbers.integers.isEmpty && price.numbers.doubles.isMapped)
            XCTAssertTrue(rating.numbers.doubles.isEmpty && rating.numbers.integers.isMapped)
            XCTAssertTrue(new.sortValues.integers.isMapped, "sort keys are numbers too")
            XCTAssertEqual(Array(new.sortValues), Array(old.sortValues))
            let oldPrice = try XCTUnwrap(old.facets.numericColumn("price"))
            XCTAssertEqual((0..<price.count).map { price[$0].bitPattern }, (0..<oldPrice.count).map { oldPrice[$0].bitPattern })
        }
        for filters in ["price = 12.89", "rating >= 3 AND brand:b1", "tags:t2 AND NOT brand:b0", "price < 5", "NOT _tags:x"] {
            let parameters: JSONObject = ["filters": .string(filters), "hitsPerPage": 100, "facets": ["*"]]
            let before = try XCTUnwrap(fixture.search("", parameters))
            let after = try XCTUnwrap(fixture.search("", parameters, index: reopened))
            XCTAssertEqual(Set(after.ids), Set(before.ids), filters)
            XCTAssertEqual(after.extra["facets"], before.extra["facets"], filters)
            XCTAssertFalse(before.ids.isEmpty, filters)
        }
        XCTAssertEqual(try XCTUnwrap(fixture.search("", ["filters": "price = 12.89"], index: reopened)).ids, ["12"])
        let ranked = try XCTUnwrap(fixture.search("item", ["hitsPerPage": 40], index: reopened)).ids
        XCTAssertEqual(ranked, try XCTUnwrap(fixture.search("item", ["hitsPerPage": 40])).ids)
        XCTAssertEqual(Array(ranked.prefix(8)), ["4", "9", "14", "19", "24", "29", "34", "39"], "rating 4 first")
    }

    func testValueDocumentsAreGapsOrBitsetsThatDecodeToTheOrdinalsAndCheckThemselves() {
        let n = 5_000_001
        // Value 3 holds an eighth of the documents: a bitset.
        let common = (0..<(n + 7) / 8).map { UInt32($0 * 8) }
        let starts: [UInt32] = [0, 3, 3, 7, UInt32(7 + common.count)]
        let ordinals: [UInt32] = [0, 63, 64, 5, 16_383, 16_384, 5_000_000] + common
        let packed = ValueDocuments(starts: starts, ordinals: ordinals, documents: n)
        var decoded: [[Int]] = []
        for v in 0..<4 {
            var docs: [Int] = []
            packed.forEachDocument(of: v) { docs.append($0) }
            decoded.append(docs)
        }
        XCTAssertEqual(decoded, [[0, 63, 64], [], [5, 16_383, 16_384, 5_000_000], common.map { Int($0) }])
        XCTAssertEqual(Array(packed.offsets.prefix(4)), [0, 3, 3, 11], "gaps of 0, 63 and 1 take a byte each; 5, 16,378, 1 and 4,983,616 take 1, 2, 1 and 4")
        XCTAssertEqual(packed.offsets[4] - packed.offsets[3], UInt32((n + 63) / 64 * 8), "a bit per document")
        var bits = [UInt64](repeating: 0, count: (n + 63) / 64)
        bits.withUnsafeMutableBufferPointer { packed.add(3, to: $0); packed.add(2, to: $0) }
        XCTAssertEqual(bits.reduce(0) { $0 + $1.nonzeroBitCount }, common.count + 2, "16,384 and 5,000,000 are in both")

        XCTAssertTrue(packed.isWellFormed(valueCount: 4, held: Int(starts[4])))
        XCTAssertFalse(ValueDocuments(starts: StoredArray(starts), offsets: packed.offsets, bytes: packed.bytes, documents: n - 1)
            .isWellFormed(valueCount: 4, held: Int(starts[4])), "an ordinal past the documents")
        XCTAssertFalse(packed.isWellFormed(valueCount: 4, held: Int(starts[4]) - 1))
        let miscounted = ValueDocuments(starts: StoredArray([0, 2, 2, 7, starts[4]]), offsets: packed.offsets, bytes: packed.bytes, documents: n)
        XCTAssertFalse(miscounted.isWellFormed(valueCount: 4, held: Int(starts[4])))
        for (at, byte) in [(1, UInt8(0)), (3, 3), (Int(packed.offsets[3]) + 1, 0xFF)] {
            // A repeated ordinal (a gap of 0 after the first); a 4-byte length where a 1-byte gap was;
            // a bitset holding more documents than its count.
            var bytes = packed.bytes.array
            bytes[at] = byte
            XCTAssertFalse(ValueDocuments(starts: StoredArray(starts), offsets: packed.offsets, bytes: StoredArray(bytes), documents: n)
                .isWellFormed(valueCount: 4, held: Int(starts[4])), "byte \(at)")
        }
    }

    private func documents(_ column: FacetColumn) -> [[Int]] {
        (0..<column.values.count).map { v in
            var docs: [Int] = []
            column.valueDocuments.forEachDocument(of: v) { docs.append($0) }
            return docs
        }
    }
}
