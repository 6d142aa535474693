import QuarryFilters
import QuarryJSON
import QuarrySearchContract
import XCTest

/// Algolia's parameters read once into the typed query, and resolved against an index's settings.
final class SearchQueryTests: XCTestCase {
    func testParametersAreTypedAndNamedFiltersKeepTheirParameter() throws {
        let query = try SearchQuery(json: [
            "query": "red shoe", "page": "2", "hitsPerPage": 5, "filters": "price < 20", "facetFilters": [["brand:a", "brand:b"]],
            "attributesToSnippet": ["description:12"], "typoTolerance": "min", "distinct": true, "counts": "fast",
            "hierarchicalFacets": [["attributes": ["lvl0", "lvl1"], "path": "A > B"]],
        ])
        XCTAssertEqual(query.query, "red shoe")
        XCTAssertEqual(query.page, 2)
        XCTAssertEqual(query.filters.map(\.parameter), ["filters", "facetFilters"])
        XCTAssertEqual(query.filter, try FilterParser.parse("price < 20 AND (brand:a OR brand:b)"))
        XCTAssertEqual(query.attributesToSnippet, [SnippetAttribute(attribute: "description", words: 12)])
        XCTAssertEqual(query.typoTolerance, .min)
        XCTAssertEqual(query.distinct, 1)
        XCTAssertEqual(query.counts, .fast)
        XCTAssertEqual(query.hierarchical.first?.path, ["A", "B"])
        XCTAssertEqual(query.hitsPerPage, 5)
    }

    func testRefusalsNameTheParameter() {
        let cases: [(JSONObject, String)] = [
            (["page": -1], "page"), (["filters": "price <"], "filters"), (["facetFilters": 3], "facetFilters"),
            (["counts": "slow"], "counts"), (["hierarchicalFacets": [["path": "A"]]], "hierarchicalFacets"),
            (["aroundLatLng": "91,0"], "aroundLatLng"), (["attributesToSnippet": ["d:x"]], "attributesToSnippet"),
        ]
        for (json, name) in cases {
            XCTAssertThrowsError(try SearchQuery(json: json), "\(json)") { error in
                guard case .invalidParameter(let parameter, _)? = error as? BackendError else { return XCTFail("\(error)") }
                XCTAssertEqual(parameter, name)
            }
        }
    }

    func testTheJSONReadsBackAsTheSameQuery() throws {
        let query = try SearchQuery(json: [
            "query": "red", "page": 1, "hitsPerPage": 7, "attributesToRetrieve": ["name"], "attributesToHighlight": ["*"],
            "attributesToSnippet": ["description:12"], "highlightPreTag": "[", "queryType": "prefixAll", "typoTolerance": false,
            "minWordSizefor1Typo": 3, "getRankingInfo": true, "restrictSearchableAttributes": ["name"], "distinct": 2,
            "filters": "price < 20 AND NOT brand:\"x y\"", "tagFilters": ["new"], "optionalFilters": ["brand:-apple", "color:\\-red"],
            "disjunctiveFilters": ["color": "color:red OR color:blue"], "facets": ["brand", "color"], "maxValuesPerFacet": 5,
            "sortFacetValuesBy": "alpha", "relevancyStrictness": 80, "counts": "fast",
            "aroundLatLng": "48.85,2.35", "aroundRadius": 1000, "insideBoundingBox": [[1, 2, 3, 4]],
            "hierarchicalFacets": [["attributes": ["lvl0", "lvl1"], "separator": " / ", "path": "A / B"]],
        ])
        var reread = try SearchQuery(json: query.json)
        // The named filters become one `filters` string: the same expression, under one name.
        XCTAssertEqual(reread.filter, query.filter)
        reread.filters = query.filters
        XCTAssertEqual(reread, query)
    }

    func testResolutionChecksAttributesAgainstTheSettings() throws {
        let settings = try IndexSettings(json: ["attributesForFaceting": ["brand", "filterOnly(color)"], "hitsPerPage": 30])
        let resolved = try SearchParameters(query: try SearchQuery(json: ["facets": ["brand", "color", "size"]]), settings: settings)
        XCTAssertEqual(resolved.hitsPerPage, 30, "what the query leaves out, the settings give")
        XCTAssertEqual(resolved.refinements.facets, ["brand"])
        XCTAssertEqual(resolved.refinements.facetsNotCounted.map(\.attribute), ["color", "size"])
        XCTAssertThrowsError(try SearchParameters(query: try SearchQuery(json: ["facetFilters": ["size:M"]]), settings: settings)) {
            guard case .invalidParameter(let name, let expected)? = $0 as? BackendError else { return XCTFail("\($0)") }
            XCTAssertEqual(name, "facetFilters")
            XCTAssertTrue(expected.contains("'size' is not"), expected)
        }
    }
}
