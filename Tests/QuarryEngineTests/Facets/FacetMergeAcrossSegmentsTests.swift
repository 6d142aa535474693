@testable import QuarryEngine
import QuarryJSON
import QuarrySearchContract
import XCTest

/// Facet values of an index in several segments (while writes stream, before they merge) are listed
/// exactly as from one segment holding the same records: the same counts, the cut at
/// `maxValuesPerFacet` taken by count then text (ties at the cut included), or by text alone, also
/// when the segment with the most values lacks some that the others hold.
final class FacetMergeAcrossSegmentsTests: XCTestCase {
    let settings = IndexSettings.with {
        $0.searchableAttributes = [SearchableAttribute(paths: ["name"])]
        $0.attributesForFaceting = [FacetAttribute(attribute: "color")]
    }

    func testSeveralSegmentsListTheValuesOneSegmentLists() throws {
        // Counts 5, 5, 4, 4, 4, 3, 2, 1, 1, 1 over colors named so that text order differs from count order.
        let counts = [("k", 5), ("b", 5), ("z", 4), ("a", 4), ("m", 4), ("c", 3), ("y", 2), ("d", 1), ("x", 1), ("e", 1)]
        var objects: [JSONObject] = []
        for (color, n) in counts { for _ in 0..<n { objects.append(["name": "shirt", "color": .string(color)]) } }
        // Spread each color over the segments: record i goes to segment i % 3.
        let fixture = SearchFixture(objects, settings: settings)
        let thirds = (0..<3).map { s in fixture.records.enumerated().filter { $0.offset % 3 == s }.map(\.element) }
        let keepApart = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0, mergeFactor: 4)
        var several = SearchIndex.build(settings: settings, records: thirds[0])
        for part in thirds.dropFirst() { several = several.updating(upserts: part, deletions: [], policy: keepApart) }
        XCTAssertEqual(several.segments.count, 3)
        for parameters in [["facets": ["color"], "maxValuesPerFacet": 3], ["facets": ["color"], "maxValuesPerFacet": 4],
                           ["facets": ["color"], "maxValuesPerFacet": 20], ["facets": ["color"], "maxValuesPerFacet": 3,
                                                                            "sortFacetValuesBy": "alpha"]] as [JSONObject] {
            let one = try XCTUnwrap(fixture.search("shirt", parameters)?.facets)
            let spread = try XCTUnwrap(fixture.search("shirt", parameters, index: several)?.facets)
            XCTAssertEqual(spread, one, "\(parameters)")
        }
        let cut = try XCTUnwrap(fixture.search("shirt", ["facets": ["color"], "maxValuesPerFacet": 3], index: several)?.facets)
        XCTAssertEqual(cut.first?.values.map(\.value), ["b", "k", "a"], "count, then text among the ties at the cut")
    }

    func testValuesTheLargestSegmentLacksCompeteAtTheCut() throws {
        // The first segment holds the most values; "zz" only the later ones, "a" is topped up by them.
        let first: [JSONObject] = ["a", "b", "c", "d", "e", "f"].map { ["name": "shirt", "color": .string($0)] }
        let later: [JSONObject] = ["zz", "zz", "zz", "zz", "a", "a", "a", "b", "yy"].map { ["name": "shirt", "color": .string($0)] }
        let fixture = SearchFixture(first + later, settings: settings)
        let keepApart = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0, mergeFactor: 4)
        var several = SearchIndex.build(settings: settings, records: Array(fixture.records.prefix(first.count)))
        for part in [Array(fixture.records[first.count..<first.count + 5]), Array(fixture.records.suffix(4))] {
            several = several.updating(upserts: part, deletions: [], policy: keepApart)
        }
        XCTAssertEqual(several.segments.count, 3)
        for parameters in [["facets": ["color"], "maxValuesPerFacet": 2], ["facets": ["color"], "maxValuesPerFacet": 3],
                           ["facets": ["color"], "maxValuesPerFacet": 20],
                           ["facets": ["color"], "maxValuesPerFacet": 8, "sortFacetValuesBy": "alpha"]] as [JSONObject] {
            let one = try XCTUnwrap(fixture.search("shirt", parameters)?.facets)
            let spread = try XCTUnwrap(fixture.search("shirt", parameters, index: several)?.facets)
            XCTAssertEqual(spread, one, "\(parameters)")
        }
        let cut = try XCTUnwrap(fixture.search("shirt", ["facets": ["color"], "maxValuesPerFacet": 3], index: several)?.facets)
        XCTAssertEqual(cut.first?.values.map(\.value), ["a", "zz", "b"])
    }
}
