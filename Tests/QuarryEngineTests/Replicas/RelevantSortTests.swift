import QuarryJSON
import XCTest
@testable import QuarryEngine

/// Standard and virtual replicas through the engine:
/// 1. a standard replica with `desc(price)` first sorts every hit by price, relevance only breaking ties;
/// 2. a virtual replica at strictness 100 keeps only the hits tied with the best on every textual
///    criterion and sorts them by its `customRanking`; 50 keeps ties on the first half (rounded up);
///    0 sorts every hit; `nbSortedHits` counts the kept hits, `nbHits` and facets still cover all;
/// 3. the strictness comes from the query, else the replica's setting, else 100, and is reported;
/// 4. a primary or standard replica reports no `appliedRelevancyStrictness`.
final class RelevantSortTests: EngineTestCase {
    private func engineWithReplicas() throws -> Engine {
        let engine = try Engine(directory: directory.path, log: { _ in })
        _ = try engine.setSettings([
            "searchableAttributes": ["name"], "attributesForFaceting": ["color"],
            "replicas": ["products_price_desc", "virtual(products_popular)"],
        ], index: "products")
        _ = try engine.saveObjects([
            record("a", ["name": "red shirt", "popularity": 1, "price": 10, "color": "red"]),
            record("b", ["name": "red shirt", "popularity": 5, "price": 20, "color": "red"]),
            record("c", ["name": "red cotton shirt", "popularity": 9, "price": 30, "color": "blue"]),
            record("d", ["name": "shirt red", "popularity": 7, "price": 5, "color": "blue"]),
            record("e", ["name": "red shirts", "popularity": 100, "price": 15, "color": "green"]),
            record("f", ["name": "red shrit", "popularity": 50, "price": 25, "color": "green"]),
            record("g", ["name": "blue hat", "popularity": 1000, "price": 1, "color": "blue"]),
        ], index: "products")
        _ = try engine.setSettings(["ranking": ["desc(price)", "typo", "words", "proximity", "attribute", "exact", "custom"]],
                                   index: "products_price_desc")
        _ = try engine.setSettings(["customRanking": ["desc(popularity)"]], index: "products_popular")
        return engine
    }

    private func ids(_ response: JSON) -> [String] {
        response["hits"]?.arrayValue?.compactMap { $0["objectID"]?.stringValue } ?? []
    }

    func testStandardReplicaSortsEveryHit() throws {
        let engine = try engineWithReplicas()
        let response = try engine.search(index: "products_price_desc", parameters: ["query": "red shirt"])
        XCTAssertEqual(ids(response), ["c", "f", "b", "e", "a", "d"])
        XCTAssertNil(response["appliedRelevancyStrictness"])
        XCTAssertNil(try engine.search(index: "products", parameters: ["query": "red"])["nbSortedHits"])
    }

    func testVirtualReplicaAtEachStrictness() throws {
        let engine = try engineWithReplicas()
        let strict = try engine.search(index: "products_popular", parameters: ["query": "red shirt", "facets": ["color"]])
        XCTAssertEqual(ids(strict), ["b", "a"])
        XCTAssertEqual(strict["appliedRelevancyStrictness"], 100)
        XCTAssertEqual(strict["nbSortedHits"], 2)
        XCTAssertEqual(strict.nbHits, 6)
        XCTAssertEqual(strict["facets"]?["color"], ["blue": 2, "green": 2, "red": 2], "ties by value")
        XCTAssertEqual(strict["nbPages"], 1)

        let half = try engine.search(index: "products_popular", parameters: ["query": "red shirt", "relevancyStrictness": 50])
        XCTAssertEqual(ids(half), ["e", "c", "d", "b", "a"], "ties on typo, geo, words and filters")
        XCTAssertEqual(half["nbSortedHits"], 5)
        XCTAssertEqual(half["appliedRelevancyStrictness"], 50)

        let all = try engine.search(index: "products_popular", parameters: ["query": "red shirt", "relevancyStrictness": 0])
        XCTAssertEqual(ids(all), ["e", "f", "c", "d", "b", "a"])
        XCTAssertEqual(all["nbSortedHits"], 6)
        XCTAssertEqual(all.nbHits, 6)
    }

    func testReplicaSettingIsTheDefaultStrictness() throws {
        let engine = try engineWithReplicas()
        _ = try engine.setSettings(["relevancyStrictness": 0], index: "products_popular")
        let response = try engine.search(index: "products_popular", parameters: ["query": ""])
        XCTAssertEqual(response["appliedRelevancyStrictness"], 0)
        XCTAssertEqual(ids(response).first, "g")
        XCTAssertEqual(response["nbSortedHits"], 7)
    }
}
