@testable import QuarryEngine
import QuarryFilters
import QuarryJSON
import XCTest
import QuarryRecords
import QuarrySearchContract

/// Counts stay exact whatever path computes them:
/// 1. the eight-at-a-time stamp scan sets exactly the bits a plain loop sets;
/// 2. on a few hundred random records in several segments, every facet count, `nbHits` and the
///    disjunctive counts equal a brute-force count over the records with `FilterMatcher`, for
///    queries matching many, some and no records (so both the popcount and the walking paths run).
final class FacetExactnessTests: XCTestCase {
    func testStampScanMatchesAPlainLoop() {
        var generator = SystemRandomNumberGenerator()
        for n in [0, 1, 63, 64, 65, 640, 1001] {
            let stamp = (0..<n).map { _ in UInt8.random(in: 0...3, using: &generator) }
            var words = [UInt64](repeating: 0, count: (n + 63) >> 6)
            FilterPlan.stampBits(stamp, final: 3, into: &words)
            var expected = [UInt64](repeating: 0, count: (n + 63) >> 6)
            for d in 0..<n where stamp[d] == 3 { expected[d >> 6] |= 1 << UInt64(d & 63) }
            XCTAssertEqual(words, expected, "n = \(n)")
        }
    }

    func testCountsEqualBruteForce() throws {
        var generator = SystemRandomNumberGenerator()
        let words = ["alpha", "beta", "gamma", "delta"], colors = ["red", "Red", "blue", "green", "black"]
        var records: [JSONObject] = []
        for i in 0..<700 {
            var record: JSONObject = ["objectID": .string("\(i)")]
            record["text"] = .string((0..<3).map { _ in words.randomElement(using: &generator) ?? "" }.joined(separator: " "))
            record["color"] = .string(colors.randomElement(using: &generator) ?? "")
            record["size"] = .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in .string(["S", "M", "L"].randomElement(using: &generator) ?? "") })
            record["price"] = .int(Int64.random(in: 0..<300, using: &generator))
            records.append(record)
        }
        let settings = IndexSettings.with {
            $0.searchableAttributes = [SearchableAttribute(paths: ["text"])]
            $0.attributesForFaceting = ["color", "size", "price"].map { FacetAttribute(attribute: $0) }
        }
        var fixture = SearchFixture(Array(records[..<500]), settings: settings)
        // A second segment, and some deletions in the first.
        let more = records[500...].enumerated().map { (DocID(500 + $0.offset), $0.element) }
        let index = fixture.index.updating(upserts: Array(more), deletions: [3, 7, 11],
                                           policy: SearchIndex.MergePolicy(eagerLimit: 0, floor: 0))
        XCTAssertEqual(index.segments.count, 2)
        fixture = SearchFixture(records, settings: settings)
        let live = records.enumerated().filter { ![3, 7, 11].contains($0.offset) }.map(\.element)

        for (query, filters, disjunctive) in [("", "", "color:red"), ("alpha", "price < 150", "size:S OR size:L"),
                                              ("gamma delta", "NOT color:blue", "color:green"), ("zzz", "", "color:red")] {
            let response = try XCTUnwrap(fixture.search(query, [
                "facets": ["color", "size", "price"], "filters": .string(filters), "maxValuesPerFacet": 1000,
                "disjunctiveFilters": ["size": .string(disjunctive.hasPrefix("size") ? disjunctive : "size:S OR size:M OR size:L"),
                                       "color": .string(disjunctive.hasPrefix("color") ? disjunctive : "NOT color:none")],
            ], index: index))
            let base = FilterMatcher(try FilterParser.parse(filters))
            let sizeGroup = FilterMatcher(try FilterParser.parse(disjunctive.hasPrefix("size") ? disjunctive : "size:S OR size:M OR size:L"))
            let colorGroup = FilterMatcher(try FilterParser.parse(disjunctive.hasPrefix("color") ? disjunctive : "NOT color:none"))
            let queryWords = query.split(separator: " ").map(String.init)
            let universe = live.filter { record in
                let text = (record["text"]?.stringValue ?? "").split(separator: " ").map(String.init)
                return queryWords.allSatisfy { text.contains($0) } && base.matches(JSONRecordValues(record))
            }
            let hits = universe.filter { sizeGroup.matches(JSONRecordValues($0)) && colorGroup.matches(JSONRecordValues($0)) }
            XCTAssertEqual(response.nbHits, hits.count, query)
            func brute(_ attribute: String, _ over: [JSONObject]) -> [String: Int] {
                var counts: [String: Int] = [:]
                for record in over {
                    var seen = Set<String>()
                    for value in JSONRecordValues(record).values(at: attribute) {
                        guard let text = FacetValues.text(of: value), seen.insert(text).inserted else { continue }
                        counts[text, default: 0] += 1
                    }
                }
                return counts
            }
            let reported = { (attribute: String) in response.facet(attribute).filter { $0.value > 0 } }
            XCTAssertEqual(reported("price"), brute("price", hits), query)
            XCTAssertEqual(reported("size"), brute("size", universe.filter { colorGroup.matches(JSONRecordValues($0)) }), query)
            XCTAssertEqual(reported("color"), brute("color", universe.filter { sizeGroup.matches(JSONRecordValues($0)) }), query)
        }
    }
}
