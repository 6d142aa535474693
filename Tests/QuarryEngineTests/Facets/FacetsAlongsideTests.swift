@testable import QuarryEngine
import Foundation
import QuarryJSON
import XCTest
import QuarrySearchContract
import QuarryText

/// A segment whose facet values were gathered on their own thread is the segment built inline: the two
/// index files are byte for byte the same, over records with text, tag, numeric, nested and geo values,
/// in counts around the handoff's batch size.
final class FacetsAlongsideTests: XCTestCase {
    func testGatheringOnItsOwnThreadBuildsTheSameSegment() throws {
        let directory = TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        let settings = try IndexSettings(json: [
            "searchableAttributes": ["name"], "attributesForFaceting": ["brand", "categories.lvl0", "searchable(tags)"],
            "customRanking": ["desc(popularity)"], "attributeForDistinct": "group",
        ])
        let brands = ["Acme", "acme", "Bolt", "Émile", "Zed"]
        for count in [0, 1, 255, 256, 257, 3_000] {
            let records: [(DocID, JSONObject)] = (0..<count).map { n in
                var record: JSONObject = [
                    "objectID": .string("r\(n)"), "name": .string("item \(n % 17)"),
                    "brand": .string(brands[Int.random(in: 0..<brands.count, using: &generator)]),
                    "categories": ["lvl0": .string("c\(n % 5)")], "tags": .array((0..<(n % 4)).map { .string("t\($0 + n % 3)") }),
                    "popularity": .int(Int64.random(in: 0...1000, using: &generator)), "price": .double(Double(n) / 4),
                    "group": .int(Int64(n % 9)), "_tags": [.string("x\(n % 2)")],
                ]
                if n % 3 == 0 { record["_geoloc"] = ["lat": .double(48 + Double(n % 10) / 10), "lng": .double(2.3)] }
                return (DocID(n + 1), record)
            }
            var files: [Data] = []
            for alongside in [false, true] {
                let layout = SearchableLayout(settings: settings), order = StaticOrder(settings: settings)
                var builder = SegmentBuilder(layout: layout, order: order, facets: FacetLayout(settings: settings),
                                             facetsOnOwnThread: alongside)
                for (id, record) in records { builder.add(docID: id, record: record) }
                let segment = builder.finish()
                let index = SearchIndex(settings: settings, layout: layout, order: order, segments: [segment],
                                        dead: [Bitset(capacity: segment.count)])
                let path = directory.path + "/\(count)-\(alongside).index"
                try index.write(to: path, generation: 1)
                files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            XCTAssertTrue(files[0] == files[1], "\(count) records")
        }
    }
}
