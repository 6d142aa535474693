import QuarryJSON
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// The memory breakdown counts every structure, and serving queries grows nothing but the bounded
/// neighbour rows.
final class IndexMemoryTests: XCTestCase {
    private static let words = ["amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "harbor", "indigo", "juniper",
                                "kelp", "lumen", "maple", "nectar", "onyx", "pepper", "quartz", "raven", "sage", "tundra"]

    private func catalogue(_ count: Int) -> SearchFixture {
        var settings = IndexSettings()
        settings.attributesForFaceting = [FacetAttribute(attribute: "brand")]
        let words = Self.words
        let objects: [JSONObject] = (0..<count).map { i in
            let name = "\(words[i % 20]) \(words[(i / 20) % 20]) item\(i)"
            let text: [String] = (0..<12).map { (k: Int) -> String in words[(i * 7 + k * 3) % 20] }
            let description = text.joined(separator: " ") + " w\(i % 997)"
            let price = Double(i % 500) + 0.5
            return ["name": .string(name), "description": .string(description), "brand": .string("brand \(i % 37)"),
                    "price": .double(price)]
        }
        return SearchFixture(objects, settings: settings)
    }

    func testBreakdownCountsEachStructureAndGrowsWithTheData() {
        let small = catalogue(500).index.memory(), large = catalogue(2_000).index.memory()
        XCTAssertEqual(small.structures.map(\.name),
                       ["documents", "dictionary", "postings", "positions", "facets", "numbers", "prefixSets", "neighborRows", "deleted"])
        let bytes = Dictionary(uniqueKeysWithValues: small.structures.map { ($0.name, $0.bytes) })
        for name in ["documents", "dictionary", "postings", "positions", "facets"] {
            XCTAssertGreaterThan(bytes[name] ?? 0, 0, name)
        }
        XCTAssertEqual(small.total, small.structures.reduce(0) { $0 + $1.bytes })
        XCTAssertEqual(small.neighborRows, 0, "nothing is computed before the first query")
        XCTAssertGreaterThan(large.total, 3 * small.total, "sized by the data")
        XCTAssertEqual(large.json()["total"]?.intValue, large.total)
    }

    func testThousandsOfDistinctQueriesGrowOnlyTheBoundedNeighbourRows() throws {
        let fixture = catalogue(2_000)
        let before = fixture.index.memory()
        let words = Self.words
        for i in 0..<2_000 {
            // Distinct queries: one to three words, the last a prefix, with and without a facet.
            let query = "\(words[i % 20]) \(words[(i / 20) % 20]) w\(i % 997)".split(separator: " ").prefix(1 + i % 3)
                .joined(separator: " ").dropLast(i % 2)
            var extra: JSONObject = ["hitsPerPage": 5, "attributesToHighlight": []]
            if i % 4 == 0 { extra["facets"] = ["brand"] }
            _ = fixture.search(String(query), extra)
        }
        let after = fixture.index.memory()
        for (old, new) in zip(before.structures, after.structures) where old.name != "neighborRows" {
            XCTAssertEqual(old.bytes, new.bytes, "\(old.name) grew while serving queries")
        }
        XCTAssertLessThanOrEqual(after.neighborRows, after.neighborRowLimit)
        XCTAssertGreaterThan(after.neighborRows, 0, "multi-word queries used the neighbour rows")
    }

    func testNeighbourRowsPastTheirCapacityAreComputedAndNotKept() throws {
        let segment = try XCTUnwrap(catalogue(1_000).index.segments.first)
        let bounded = NeighborTables(capacity: 100), unbounded = NeighborTables(capacity: .max)
        XCTAssertGreaterThan(segment.dictionary.count, 1_000)
        for term in 0..<segment.dictionary.count {
            XCTAssertEqual(bounded.row(term, segment: segment), unbounded.row(term, segment: segment))
        }
        XCTAssertEqual(bounded.rowCount, 100)
        XCTAssertEqual(unbounded.rowCount, segment.dictionary.count)
    }
}
