import QuarryEngine
import QuarryFilters
import QuarryJSON
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

/// What one Quarry search asks of Typesense:
/// 1. the exact-count parameters on every search, the text parameters from the settings;
/// 2. one hits search, plus one counting search per other set of relaxed conditions;
/// 3. pages over 250 stitched from 250-hit pages;
/// 4. sort keys from `ranking`, at most three; relevant sort's buckets;
/// 5. distinct: group_by, with the facets moved to a search without it;
/// 6. hierarchical levels relax the deeper selections;
/// 7. fields no record holds are never named, and searches that cannot match are not sent.
final class SearchTranslationTests: XCTestCase {
    private func translate(
        _ json: JSONObject, settings extra: JSONObject = [:], fields: Set<String> = SearchFixtures.fields
    ) throws -> SearchTranslation {
        let settings = try SearchFixtures.indexSettings(extra)
        let parameters = try SearchParameters(json: json, settings: settings)
        return try SearchTranslation(index: "fx", parameters: parameters, settings: settings, collection: "quarry_fx",
                                     fields: fields, filter: SearchFixtures.filter, highlighting: NoHighlighting())
    }

    func testDisjunctiveSearchIsOneHitsSearchAndOneRelaxedCount() throws {
        let t = try translate(["query": "giv", "facets": ["color", "brand"], "hitsPerPage": 2,
                               "disjunctiveFilters": ["color": "color:red OR color:blue"]])
        XCTAssertEqual(t.searches.map(\.purpose), [.hits(page: 1), .counts(attributes: ["color"])])
        let text: JSONObject = [
            "collection": "quarry_fx", "q": "giv", "query_by": "s_title", "num_typos": 2, "min_len_1typo": 4, "min_len_2typo": 8,
            "prefix": true, "max_candidates": 100_000, "typo_tokens_threshold": 100_000, "drop_tokens_threshold": 0,
            "split_join_tokens": "off", "enable_overrides": false,
        ]
        var hits = text
        hits["filter_by"] = "(f_color:=`red` || f_color:=`blue`)"
        hits["page"] = 1
        hits["per_page"] = 2
        hits["include_fields"] = "_q_record"
        hits["sort_by"] = "_text_match:desc,o_popularity:desc"
        hits["facet_by"] = "f_brand"
        hits["max_facet_values"] = 300  // maxValuesPerFacet 100 and a margin (FacetCut)
        var counts = text
        counts["per_page"] = 0
        counts["facet_by"] = "f_color"
        counts["max_facet_values"] = 300
        XCTAssertEqual(t.requests, [hits, counts])
    }

    func testAFastAnswerWithWordsAsksNoFacetMargin() throws {
        let settings = try SearchFixtures.indexSettings([:])
        func asked(_ json: JSONObject, counts: SearchCounts) throws -> [Int?] {
            let parameters = try SearchParameters(json: json, settings: settings)
            let t = try SearchTranslation(index: "fx", parameters: parameters, settings: settings, collection: "quarry_fx",
                                          fields: SearchFixtures.fields, filter: SearchFixtures.filter, highlighting: NoHighlighting(),
                                          counts: counts)
            return t.requests.map { $0["max_facet_values"]?.intValue }
        }
        let words: JSONObject = ["query": "giv", "facets": ["brand"], "disjunctiveFilters": ["color": "color:red"]]
        XCTAssertEqual(try asked(words, counts: .fast), [100, 100], "an estimate the exact completion replaces")
        XCTAssertEqual(try asked(words, counts: .exact), [300, 300])
        var noWords = words
        noWords["query"] = ""
        XCTAssertEqual(try asked(noWords, counts: .fast), [300, 300], "without a word a fast answer is exact, margin included")
    }

    func testTextParametersFollowTheSettings() throws {
        let settings: JSONObject = ["searchableAttributes": ["title", "brand,color", "notes"], "typoTolerance": false,
                                    "disableTypoToleranceOnAttributes": ["brand"], "queryType": "prefixNone"]
        let fields = SearchFixtures.fields.union(["s_brand", "s_color"])
        let p = try XCTUnwrap(try translate(["query": "gift "], settings: settings, fields: fields).requests.first)
        XCTAssertEqual(p["query_by"], "s_title,s_brand,s_color")  // s_notes: no record holds it
        XCTAssertEqual(p["query_by_weights"], "15,8,8")
        XCTAssertEqual(p["num_typos"], 0)
        XCTAssertEqual(p["prefix"], false)
        // prefixLast: a trailing space ends the last word, as in the engine; per-field typos.
        let q = try XCTUnwrap(try translate(["query": "gift "], settings: ["searchableAttributes": ["title", "brand"]],
                                            fields: fields).requests.first)
        XCTAssertEqual(q["prefix"], false)
        let r = try XCTUnwrap(try translate(["query": "gi", "restrictSearchableAttributes": ["brand"]],
                                            settings: ["searchableAttributes": ["title", "brand"], "disableTypoToleranceOnAttributes": ["brand"]],
                                            fields: fields).requests.first)
        XCTAssertEqual(r["query_by"], "s_brand")
        XCTAssertEqual(r["prefix"], true)
        let s = try XCTUnwrap(try translate(["query": "gi t"], settings: ["searchableAttributes": ["title", "brand"],
                                                                          "disableTypoToleranceOnAttributes": ["brand"]],
                                            fields: fields).requests.first)
        XCTAssertEqual(s["num_typos"], "2,0")
        // Blank matches every record; symbols without a word match nothing, so nothing is sent.
        XCTAssertEqual(try translate(["query": "   "]).requests.first?["q"], "*")
        XCTAssertEqual(try translate(["query": " ?! 🍕"]).requests.count, 0)
        XCTAssertEqual(try translate(["query": "g", "typoTolerance": "min"]).requests.first?["typo_tokens_threshold"], 1)
    }

    func testLargePagesAreStitchedFrom250HitPages() throws {
        let t = try translate(["query": "g", "hitsPerPage": 600, "page": 1, "paginationLimitedTo": 5000])
        XCTAssertEqual(t.searches.map(\.purpose), [.hits(page: 3), .hits(page: 4), .hits(page: 5)])
        XCTAssertEqual(t.requests.map { $0["per_page"] }, [250, 250, 250])
        XCTAssertEqual(t.window.firstFetched, 500)
        XCTAssertEqual(PageWindow(page: 2, hitsPerPage: 20, paginationLimitedTo: 1000).pages, [3])
        // Past paginationLimitedTo: no hits, but the count.
        let past = try translate(["query": "g", "hitsPerPage": 500, "page": 2, "paginationLimitedTo": 1000])
        XCTAssertEqual(past.requests.map { $0["per_page"] }, [0])
        let cut = PageWindow(page: 1, hitsPerPage: 30, paginationLimitedTo: 40)
        XCTAssertEqual([cut.start, cut.end, cut.perPage], [30, 40, 30])
        XCTAssertEqual(cut.pages, [2])
        XCTAssertEqual(PageWindow(page: Int.max, hitsPerPage: 20, paginationLimitedTo: 1000).pages, [])
    }

    func testSortKeysFollowRankingAtMostThree() throws {
        let fields = SearchFixtures.fields.union(["o_a", "o_b", "o_c"])
        let custom: JSONObject = ["customRanking": ["desc(popularity)", "asc(a)", "desc(b)", "asc(c)"]]
        let t = try translate(["query": "g"], settings: custom, fields: fields)
        XCTAssertEqual(t.requests[0]["sort_by"], "_text_match:desc,o_popularity:desc,o_a:asc")
        XCTAssertEqual(t.droppedSortKeys, ["o_b:desc", "o_c:asc"])
        // A standard replica's sort comes first; the empty query needs no text score.
        let replica: JSONObject = ["ranking": ["asc(price)", "typo", "words", "custom"]]
        XCTAssertEqual(try translate(["query": "g"], settings: replica).requests[0]["sort_by"], "o_price:asc,_text_match:desc,o_popularity:desc")
        XCTAssertEqual(try translate(["query": ""], settings: replica).requests[0]["sort_by"], "o_price:asc,o_popularity:desc")
    }

    func testOptionalFiltersSortFirstAtTheFiltersCriterion() throws {
        let t = try translate(["query": "g", "optionalFilters": ["brand:Bolt", "color:green"]])
        XCTAssertEqual(t.requests[0]["sort_by"], "_text_match:desc,_eval((f_brand:=`Bolt` || f_color:=`green`)):desc,o_popularity:desc")
    }

    func testRelevantSortBucketsTheTextScore() throws {
        var settings = try SearchFixtures.indexSettings()
        settings.isVirtualReplica = true
        for (strictness, sort) in [(90, "_text_match(buckets:9):desc,o_popularity:desc"), (0, "o_popularity:desc")] {
            let parameters = try SearchParameters(json: ["query": "g", "relevancyStrictness": JSON(strictness)], settings: settings)
            let t = try SearchTranslation(index: "fx", parameters: parameters, settings: settings, collection: "c",
                                          fields: SearchFixtures.fields, filter: SearchFixtures.filter, highlighting: nil)
            XCTAssertEqual(t.requests[0]["sort_by"], .string(sort))
            XCTAssertEqual(t.strictness, strictness)
        }
    }

    func testDistinctGroupsHitsAndCountsWithoutGroups() throws {
        let t = try translate(["query": "g", "facets": ["color"]], settings: ["attributeForDistinct": "brand", "distinct": true])
        XCTAssertEqual(t.searches.map(\.purpose), [.hits(page: 1), .counts(attributes: ["color"])])
        XCTAssertEqual(t.requests[0]["group_by"], "f_brand")
        XCTAssertEqual(t.requests[0]["group_limit"], 1)
        XCTAssertNil(t.requests[0]["facet_by"])
        XCTAssertEqual(t.requests[1]["facet_by"], "f_color,f_brand")
        XCTAssertNil(t.requests[1]["group_by"])
        // Grouped pages are fetched from the first group, twice the hits wanted.
        let two = try translate(["query": "g", "page": 1, "hitsPerPage": 5, "distinct": 2],
                                settings: ["attributeForDistinct": "brand"])
        XCTAssertEqual(two.requests.map { $0["page"] }, [1, nil])
        XCTAssertEqual(two.requests[0]["per_page"], 20)
        XCTAssertEqual(two.requests[1]["facet_by"], "f_brand")
        // With the documents' own distinct key, that field groups and counts.
        let keyed = try translate(["query": "g", "facets": ["color"]], settings: ["attributeForDistinct": "brand", "distinct": true],
                                  fields: SearchFixtures.fields.union([SearchTranslation.distinctKeyField]))
        XCTAssertEqual(keyed.requests[0]["group_by"], "_q_distinct")
        XCTAssertEqual(keyed.requests[1]["facet_by"], "f_color,_q_distinct")
    }

    func testHierarchicalLevelsRelaxDeeperSelections() throws {
        let fields = SearchFixtures.fields.union(["f_lvl0", "f_lvl1", "f_lvl2"])
        let settings: JSONObject = ["attributesForFaceting": ["lvl0", "lvl1", "lvl2", "color"]]
        let t = try translate(["query": "", "facets": ["color"],
                               "hierarchicalFacets": [["attributes": ["lvl0", "lvl1", "lvl2"], "separator": " > ", "path": "A > B"]]],
                              settings: settings, fields: fields)
        // Hits and color: the deepest selection; lvl0: nothing; lvl1: level 0; lvl2: level 1.
        XCTAssertEqual(t.searches.map(\.purpose), [.hits(page: 1), .counts(attributes: ["lvl0"]), .counts(attributes: ["lvl1"])])
        XCTAssertEqual(t.requests[0]["filter_by"], "f_lvl1:=`A > B`")
        XCTAssertEqual(t.requests[0]["facet_by"], "f_color,f_lvl2")
        XCTAssertNil(t.requests[1]["filter_by"])
        XCTAssertEqual(t.requests[2]["filter_by"], "f_lvl0:=`A`")
    }

    func testMissingFieldsAndImpossibleSearches() throws {
        // A facet no record holds is not asked for (Typesense refuses unknown fields).
        let t = try translate(["query": "g", "facets": ["price", "brand"], "disjunctiveFilters": ["brand": "brand:Acme"]],
                              fields: SearchFixtures.fields.subtracting(["f_price"]))
        XCTAssertEqual(t.requests[0]["facet_by"], nil)
        XCTAssertEqual(t.requests[1]["facet_by"], "f_brand")
        XCTAssertNil(t.facetSources["price"])
        // No searchable field, or a geo filter without _geoloc: nothing is sent.
        XCTAssertTrue(try translate(["query": "g"], fields: ["_q_record"]).requests.isEmpty)
        XCTAssertTrue(try translate(["query": "", "aroundLatLng": "48.8,2.3", "aroundRadius": 1000],
                                    fields: SearchFixtures.fields.subtracting(["_q_geo"])).requests.isEmpty)
        // A filter the translator decides is empty: that search only.
        let none: FilterRendering = { $0.isEmpty ? .all : .none }
        let settings = try SearchFixtures.indexSettings()
        let parameters = try SearchParameters(json: ["query": "g", "facets": ["color"], "disjunctiveFilters": ["color": "color:pink"]],
                                              settings: settings)
        let u = try SearchTranslation(index: "fx", parameters: parameters, settings: settings, collection: "c",
                                      fields: SearchFixtures.fields, filter: none, highlighting: nil)
        XCTAssertEqual(u.searches.map { $0.parameters == nil }, [true, false])
    }

    func testGeoBecomesFilterAndSort() throws {
        let fields = SearchFixtures.fields
        let t = try translate(["query": "", "aroundLatLng": "48.85, 2.35", "aroundRadius": 2500,
                               "insideBoundingBox": [[48, 2, 49, 3]]], fields: fields)
        XCTAssertEqual(t.requests[0]["filter_by"],
                       "_q_geo:(48.85, 2.35, 2.5 km) && _q_geo:(48.0, 2.0, 48.0, 3.0, 49.0, 3.0, 49.0, 2.0)")
        XCTAssertEqual(t.requests[0]["sort_by"], "_q_geo(48.85, 2.35, precision: 0.01 km):asc,o_popularity:desc")
    }

    func testErrorsAreTheEngines() throws {
        let settings = try SearchFixtures.indexSettings()
        let backend = { (json: JSONObject) throws(BackendError) -> JSON in
            try TypesenseSearch.search(index: "fx", parameters: json, settings: settings, collection: "c", fields: SearchFixtures.fields,
                                       positionEncoding: .utf16, highlighting: nil,
                                       filter: SearchFixtures.filter) { (_) throws(BackendError) -> [JSONObject] in
                throw .unavailable("not called")
            }
        }
        for bad: JSONObject in [["hitsPerPage": 5000], ["filters": "nope:1"], ["facetFilters": 3], ["distinct": 9]] {
            var engineError: BackendError?
            do { _ = try SearchParameters(json: bad, settings: settings) } catch { engineError = error }
            XCTAssertNotNil(engineError)
            XCTAssertThrowsError(try backend(bad)) { XCTAssertEqual($0 as? BackendError, engineError) }
        }
    }
}
