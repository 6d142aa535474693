@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// An index split into several segments (as writes leave it) answers exactly like one built at once:
/// same hits in the same order, `nbHits`, `nbSortedHits` and facets, for relevant sort at 100, 50
/// and 0, geo ranking, optional filters, distinct and disjunctive counts, and plain ranking on a later page.
final class SegmentIndependenceTests: XCTestCase {
    func testSplitIndexAnswersLikeOneSegment() throws {
        var generator = SystemRandomNumberGenerator()
        let words = ["red", "blue", "shirt", "dress", "cotton", "wool"]
        var records: [(DocID, JSONObject)] = []
        for i in 0..<300 {
            let name = (0..<Int.random(in: 2...4, using: &generator)).map { _ in words.randomElement(using: &generator) ?? "" }
            records.append((DocID(i), [
                "objectID": .string("\(i)"), "name": .string(name.joined(separator: " ")),
                "brand": .string(["a", "b", "c", "d"].randomElement(using: &generator) ?? "a"),
                "price": .int(Int64.random(in: 1...50, using: &generator)),
                "_geoloc": ["lat": .double(Double.random(in: 40...50, using: &generator)), "lng": .double(Double.random(in: 0...10, using: &generator))],
            ]))
        }
        var settings = IndexSettings.with {
            $0.searchableAttributes = [SearchableAttribute(paths: ["name"])]
            $0.attributesForFaceting = [FacetAttribute(attribute: "brand")]
            $0.customRanking = [CustomRankingCriterion(attribute: "price", ascending: true)]
            $0.attributeForDistinct = "brand"
        }
        let cases: [(Bool, JSONObject)] = [
            (true, ["relevancyStrictness": 100]), (true, ["relevancyStrictness": 50]), (true, ["relevancyStrictness": 0]),
            (false, ["aroundLatLng": "45,5", "facets": ["brand"]]), (false, ["optionalFilters": ["brand:b"]]),
            (false, ["distinct": 2]), (false, ["disjunctiveFilters": ["brand": "brand:a OR brand:c"], "facets": ["brand"]]),
            (false, [:]), (false, ["page": 2]),
        ]
        for (virtual, parameters) in cases {
            settings.isVirtualReplica = virtual
            let whole = SearchIndex.build(settings: settings, records: records)
            var split = SearchIndex.build(settings: settings, records: records[..<100])
            let policy = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0)
            split = split.updating(upserts: Array(records[100..<200]), deletions: [], policy: policy)
            split = split.updating(upserts: Array(records[200...]), deletions: [], policy: policy)
            XCTAssertEqual(split.segments.count, 3)
            let source = InMemoryRecords(records)
            for query in ["", "red", "red shirt", "cotton w", "blue dress red"] {
                var json = parameters
                json["query"] = .string(query)
                json["hitsPerPage"] = 30
                let search = try SearchParameters(json: json, settings: settings)
                let a = try whole.search(search, records: source), b = try split.search(search, records: source)
                let label = "\(query) \(JSONWriter.string(.object(parameters)))"
                XCTAssertEqual(b.hits.map { $0["objectID"] }, a.hits.map { $0["objectID"] }, label)
                XCTAssertEqual(b.nbHits, a.nbHits, label)
                XCTAssertEqual(b.extra["nbSortedHits"], a.extra["nbSortedHits"], label)
                XCTAssertEqual(b.extra["facets"], a.extra["facets"], label)
            }
        }
    }
}
