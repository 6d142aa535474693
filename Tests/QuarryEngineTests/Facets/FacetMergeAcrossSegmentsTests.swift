@testable import QuarryEngine
import QuarryJSON
import QuarrySearchContract
import XCTest

/// Facet values of an index in several segments (while writes stream, before they merge) are listed
/// exactly as from one segment holding the same records: the same counts, the cut at
/// `maxValuesPerFacet` taken by count then text (ties at the cut included), or by text alone, also
/// when the segment with the most values lacks some that the others hold, and after a larger segment
/// arrives (each segment's value ids are translated into the largest's once, then kept).
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

    func testTranslationsFollowALargerSegment() throws {
        // Three segments searched (their translations into the first made and kept), then a fourth with more
        // values than the first: the others are translated into it, and the counts stay those of one segment.
        let colors = ["a", "b", "c", "d"]
        let early: [JSONObject] = (0..<12).map { ["name": "shirt", "color": .string(colors[$0 % 4])] }
        let larger: [JSONObject] = (0..<14).map { ["name": "shirt", "color": .string($0 < 8 ? "n\($0)" : colors[$0 % 3])] }
        let fixture = SearchFixture(early + larger, settings: settings)
        let keepApart = SearchIndex.MergePolicy(eagerLimit: 0, floor: 0, mergeFactor: 4)
        let records = fixture.records
        var several = SearchIndex.build(settings: settings, records: Array(records[0..<6]))
        for part in [Array(records[6..<9]), Array(records[9..<12])] {
            several = several.updating(upserts: part, deletions: [], policy: keepApart)
        }
        let earlyFixture = SearchFixture(early, settings: settings)
        let parameters: JSONObject = ["facets": ["color"], "maxValuesPerFacet": 20]
        for _ in 0..<2 {
            XCTAssertEqual(try XCTUnwrap(earlyFixture.search("shirt", parameters, index: several)?.facets),
                           try XCTUnwrap(earlyFixture.search("shirt", parameters)?.facets))
        }
        several = several.updating(upserts: Array(records[12...]), deletions: [], policy: keepApart)
        XCTAssertEqual(several.segments.count, 4)
        for extra in [parameters, ["facets": ["color"], "maxValuesPerFacet": 3], ["facets": ["color"], "filters": "color:a OR color:n1"]] as [JSONObject] {
            XCTAssertEqual(try XCTUnwrap(fixture.search("shirt", extra, index: several)?.facets),
                           try XCTUnwrap(fixture.search("shirt", extra)?.facets), "\(extra)")
        }
    }

    func testTranslatedIdsNameTheSameTextOrNone() {
        let settings = self.settings
        func column(_ colors: [String]) -> FacetColumn? {
            let records: [(DocID, JSONObject)] = colors.enumerated().map { (DocID($0.offset), ["name": "shirt", "color": .string($0.element)]) }
            return SearchIndex.build(settings: settings, records: records).segments.first?.facets.column("color")
        }
        guard let part = column(["b", "x", "a"]), let base = column(["a", "b", "c"]), let other = column(["x"]) else {
            return XCTFail("no color column")
        }
        for into in [base, other, base] {
            let ids = part.translations.ids(of: part, in: into)
            XCTAssertEqual(ids.count, part.values.count)
            for (id, text) in part.values.enumerated() {
                XCTAssertEqual(ids[id] < 0 ? nil : into.values[Int(ids[id])], into.values.contains(text) ? text : nil)
            }
        }
    }
}
