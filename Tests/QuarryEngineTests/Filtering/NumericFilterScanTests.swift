@testable import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Numeric comparisons and ranges (built 64 documents per bitset word) match exactly the documents a
/// per-document test would, including documents without the number, which never match.
final class NumericFilterScanTests: XCTestCase {
    func testEveryOperatorMatchesBruteForce() throws {
        var settings = IndexSettings()
        settings.searchableAttributes = [SearchableAttribute(paths: ["name"])]
        settings.attributesForFaceting = [FacetAttribute(attribute: "price")]
        var prices: [Double?] = []
        var records: [(DocID, JSONObject)] = []
        for i in 0..<333 {
            let price: Double? = i % 7 == 0 ? nil : Double((i * 37) % 50) / 2
            prices.append(price)
            var record: JSONObject = ["name": "item"]
            if let price { record["price"] = .double(price) }
            records.append((DocID(i), record))
        }
        let index = SearchIndex.build(settings: settings, records: records)
        let cases: [(String, (Double) -> Bool)] = [
            ("price < 10", { $0 < 10 }), ("price <= 10", { $0 <= 10 }), ("price = 10", { $0 == 10 }),
            ("price != 10", { $0 != 10 }), ("price >= 10.5", { $0 >= 10.5 }), ("price > 24", { $0 > 24 }),
            ("price:3 TO 7.5", { 3 <= $0 && $0 <= 7.5 }), ("NOT price < 10", { !($0 < 10) }),
        ]
        for (filter, test) in cases {
            let parameters = try SearchParameters(json: ["query": "", "filters": .string(filter), "hitsPerPage": 1000], settings: settings)
            let response = try index.search(parameters, records: Records(records: records))
            let expected = prices.indices.filter { i in
                guard let price = prices[i] else { return filter.hasPrefix("NOT") }
                return test(price)
            }
            XCTAssertEqual(response.nbHits, expected.count, filter)
            let ids = response.hits.compactMap { $0["objectID"]?.stringValue }.compactMap { Int($0) }.sorted()
            XCTAssertEqual(ids, expected, filter)
        }
    }

    private struct Records: RecordSource {
        let records: [(DocID, JSONObject)]
        func record(_ id: DocID) -> JSONObject? { ["objectID": .string("\(id)")] }
    }
}
