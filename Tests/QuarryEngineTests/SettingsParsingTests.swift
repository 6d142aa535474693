import QuarryJSON
import XCTest
@testable import QuarryEngine
import QuarrySearchContract

/// Settings as Algolia exports them:
/// 1. a full export (legacy names, nulls, string booleans) parses to the intended model;
/// 2. every name Quarry does not act on is kept as given and reported;
/// 3. json() renders current names and re-parses to the same settings;
/// 4. a partial merge changes only the given keys; null resets to the default;
/// 5. a wrong type names the setting and what was expected, and changes nothing.
final class SettingsParsingTests: XCTestCase {
    /// The shape of an Algolia export of a primary index with legacy names.
    let export: JSONObject = [
        "minWordSizefor1Typo": 3, "minWordSizefor2Typos": 7, "hitsPerPage": 20, "maxValuesPerFacet": 100,
        "version": 1,
        "attributesToIndex": ["unordered(name)", "speakers,event_name", "meta.tags"],
        "numericAttributesToIndex": nil, "attributesToRetrieve": nil, "allowTyposOnNumericTokens": true,
        "ignorePlurals": false, "advancedSyntax": false, "removeStopWords": false, "distinct": true,
        "slaves": ["talks_date_asc", "virtual(talks_relevant)"],
        "attributesForFaceting": ["date", "searchable(tags)", "filterOnly(languages)"],
        "attributesToSnippet": ["speakers:15", "description"], "attributesToHighlight": nil,
        "paginationLimitedTo": 1000, "attributeForDistinct": "speakers", "exactOnSingleWordQuery": "word",
        "ranking": ["desc(date)", "typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"],
        "customRanking": ["desc(date)", "asc(meta.rank)"], "separatorsToIndex": "",
        "queryType": "prefixAll", "highlightPreTag": "<b>", "highlightPostTag": "</b>", "snippetEllipsisText": "",
        "typoTolerance": "true", "alternativesAsExact": ["ignorePlurals", "singleWordSynonym"],
    ]

    func testExportParsesWithLegacyNames() throws {
        let settings = try IndexSettings(json: export)
        XCTAssertEqual(settings.searchableAttributes, [
            SearchableAttribute(paths: ["name"], ordered: false),
            SearchableAttribute(paths: ["speakers", "event_name"]),
            SearchableAttribute(paths: ["meta.tags"]),
        ])
        XCTAssertEqual(settings.replicas, [
            ReplicaReference(name: "talks_date_asc", isVirtual: false),
            ReplicaReference(name: "talks_relevant", isVirtual: true),
        ])
        XCTAssertEqual(settings.ranking.first, .desc("date"))
        XCTAssertEqual(settings.ranking.count, 9)
        XCTAssertEqual(settings.customRanking, [
            CustomRankingCriterion(attribute: "date", ascending: false),
            CustomRankingCriterion(attribute: "meta.rank", ascending: true),
        ])
        XCTAssertEqual(settings.attributesForFaceting, [
            FacetAttribute(attribute: "date"), FacetAttribute(attribute: "tags", modifier: .searchable),
            FacetAttribute(attribute: "languages", modifier: .filterOnly),
        ])
        XCTAssertEqual(settings.attributesToSnippet, [
            SnippetAttribute(attribute: "speakers", words: 15), SnippetAttribute(attribute: "description", words: 10),
        ])
        XCTAssertEqual(settings.distinct, 1)
        XCTAssertEqual(settings.attributeForDistinct, "speakers")
        XCTAssertEqual(settings.typoTolerance, .enabled)
        XCTAssertEqual(settings.queryType, .prefixAll)
        XCTAssertEqual(settings.minWordSizefor1Typo, 3)
        XCTAssertEqual(settings.highlightPreTag, "<b>")
        XCTAssertEqual(settings.snippetEllipsisText, "")
        XCTAssertNil(settings.attributesToRetrieve)
    }

    func testUnsupportedNamesAreKeptAsGivenAndReported() throws {
        let settings = try IndexSettings(json: export)
        XCTAssertEqual(Set(settings.unsupported.keys), [
            "version", "numericAttributesToIndex", "ignorePlurals", "advancedSyntax", "removeStopWords",
            "exactOnSingleWordQuery", "separatorsToIndex", "alternativesAsExact",
        ])
        XCTAssertEqual(settings.unsupported["alternativesAsExact"], ["ignorePlurals", "singleWordSynonym"])
        XCTAssertEqual(settings.unsupported["numericAttributesToIndex"], .null)
        XCTAssertEqual(
            Set(IndexSettings.unsupportedNames(in: export)), Set(settings.unsupported.keys),
            "legacy names of supported settings are not reported")
    }

    func testRenderingUsesCurrentNamesAndRoundTrips() throws {
        let settings = try IndexSettings(json: export)
        let rendered = settings.json()
        XCTAssertNil(rendered["attributesToIndex"])
        XCTAssertNil(rendered["slaves"])
        XCTAssertEqual(rendered["searchableAttributes"], ["unordered(name)", "speakers,event_name", "meta.tags"])
        XCTAssertEqual(rendered["replicas"], ["talks_date_asc", "virtual(talks_relevant)"])
        XCTAssertEqual(rendered["attributesForFaceting"], ["date", "searchable(tags)", "filterOnly(languages)"])
        XCTAssertEqual(rendered["attributesToSnippet"], ["speakers:15", "description:10"])
        XCTAssertEqual(rendered["ignorePlurals"], false)
        XCTAssertEqual(try IndexSettings(json: rendered), settings)
    }

    func testTypoToleranceAndDistinctForms() throws {
        let forms: [(JSON, TypoTolerance)] = [
            (true, .enabled), (false, .disabled), ("true", .enabled), ("false", .disabled), ("min", .min),
            ("strict", .strict), (nil, .enabled),
        ]
        for (value, expected) in forms {
            XCTAssertEqual(try IndexSettings(json: ["typoTolerance": value]).typoTolerance, expected, "\(value)")
        }
        XCTAssertEqual(try IndexSettings(json: ["distinct": false]).distinct, 0)
        XCTAssertEqual(try IndexSettings(json: ["distinct": 3]).distinct, 3)
        XCTAssertEqual(try IndexSettings(json: ["searchableAttributes": ["unordered(a,b)"]]).searchableAttributes,
                       [SearchableAttribute(paths: ["a", "b"], ordered: false)])
    }

    /// Found by the settings fuzz target: `"unordered(a),unordered(b)"`, which is
    /// how `unordered(a,b)` renders, was read as `unordered(` … `)` around
    /// `a),unordered(b` and refused.
    func testUnorderedGroupsRoundTrip() throws {
        for text in ["unordered(a),unordered(b)", "unordered(a,b)", "unordered(a), b", "a,unordered(b)"] {
            let settings = try IndexSettings(json: ["searchableAttributes": [.string(text)]])
            XCTAssertEqual(settings.searchableAttributes, [SearchableAttribute(paths: ["a", "b"], ordered: false)], text)
            XCTAssertEqual(try IndexSettings(json: settings.json()), settings, text)
        }
        XCTAssertThrowsError(try IndexSettings(json: ["searchableAttributes": ["unordered(a"]]))
        XCTAssertThrowsError(try IndexSettings(json: ["searchableAttributes": ["a),(b"]]))
    }

    func testMergeChangesOnlyGivenKeysAndNullResets() throws {
        var settings = try IndexSettings(json: export)
        try settings.merge(["hitsPerPage": 5, "customRanking": nil, "ignorePlurals": true])
        XCTAssertEqual(settings.hitsPerPage, 5)
        XCTAssertEqual(settings.customRanking, [])
        XCTAssertEqual(settings.unsupported["ignorePlurals"], true)
        XCTAssertEqual(settings.queryType, .prefixAll, "untouched")
        XCTAssertEqual(settings.replicas.count, 2, "untouched")
    }

    func testWrongTypesNameTheSettingAndChangeNothing() throws {
        let cases: [(JSONObject, String)] = [
            (["hitsPerPage": "20"], "hitsPerPage"), (["attributesToIndex": "title"], "attributesToIndex"),
            (["ranking": ["typo", "popularity"]], "ranking"), (["customRanking": ["popularity"]], "customRanking"),
            (["typoTolerance": "maybe"], "typoTolerance"), (["distinct": 9], "distinct"),
            (["attributesToSnippet": ["body:many"]], "attributesToSnippet"), (["queryType": "prefixSome"], "queryType"),
            (["attributesForFaceting": ["searchable()"]], "attributesForFaceting"), (["slaves": [1]], "slaves"),
            (["searchableAttributes": ["a..b"]], "searchableAttributes"), (["relevancyStrictness": 101], "relevancyStrictness"),
        ]
        for (json, name) in cases {
            var settings = IndexSettings()
            settings.hitsPerPage = 7
            XCTAssertThrowsError(try settings.merge(json.merging(["hitsPerPage": 9], uniquingKeysWith: { a, _ in a }))) { error in
                guard case BackendError.invalidSetting(let reported, let expected) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(reported, name)
                XCTAssertFalse(expected.isEmpty)
            }
            XCTAssertEqual(settings.hitsPerPage, 7, "a failed merge changes nothing (\(name))")
        }
    }
}
