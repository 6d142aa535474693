import QuarryEngine
import QuarryJSON
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

/// The collection schema on a live node: documents import, and the derived fields facet, sort,
/// filter and search as the other parts of the backend expect.
final class SchemaLiveTests: XCTestCase {
    func testDerivedFieldsFacetSortFilterAndSearch() throws {
        let node = try LiveCollection.start()
        defer { node.stop() }
        guard case .object(let settingsJSON) = try JSONParser.parse(#"{"searchableAttributes":["title","tags.name"],"attributesForFaceting":["color"]}"#)
        else { return XCTFail("settings") }
        let settings = try IndexSettings(json: settingsJSON)
        let texts = [
            #"{"objectID":"a","title":"Kettle","color":["red",10.5],"price":30,"tags":[{"name":"steel"}],"_geoloc":{"lat":48.85,"lng":2.35}}"#,
            #"{"objectID":"b","title":"Blue mug","color":"blue","price":-2.5,"tags":[{"name":"Kettle"}]}"#,
            #"{"objectID":"c","title":"Plain","color":["red"],"price":[7,100],"nested":{"deep":1}}"#,
        ]
        let records: [JSONObject] = try texts.map { text in
            guard case .object(let object) = try JSONParser.parse(text) else { throw LiveError("record") }
            return object
        }
        let fields = try node.index(records, settings: settings)
        XCTAssertTrue(Set(fields).isSuperset(of: ["s_title", "s_tags_2Ename", "f_color", "n_price", "o_price", "n_nested_2Edeep"]), "\(fields)")

        let facets = try node.search(["q": "*", "facet_by": "f_color", "max_facet_values": 10])
        let counts = facets["facet_counts"]?.arrayValue?.first?["counts"]?.arrayValue ?? []
        let byValue = Dictionary(uniqueKeysWithValues: counts.compactMap { c in
            c["value"]?.stringValue.map { (FacetText.decode($0), c["count"]?.intValue ?? 0) }
        })
        XCTAssertEqual(byValue, ["red": 2, "blue": 1, "10.5": 1])

        let sorted = try node.search(["q": "*", "sort_by": "o_price:asc"])
        XCTAssertEqual(sorted["hits"]?.arrayValue?.compactMap { $0["document"]?["id"]?.stringValue }, ["b", "c", "a"])

        let filtered = try node.search(["q": "*", "filter_by": "n_price:>50"])
        XCTAssertEqual(filtered["hits"]?.arrayValue?.compactMap { $0["document"]?["id"]?.stringValue }, ["c"])

        let searchable = SearchableFields(settings: settings, collectionFields: fields)
        XCTAssertEqual(searchable.fields, ["s_title", "s_tags_2Ename"])
        let found = try node.search(["q": "kettle", "query_by": .string(searchable.queryBy), "query_by_weights": .string(searchable.queryByWeights)])
        XCTAssertEqual(found["hits"]?.arrayValue?.compactMap { $0["document"]?["id"]?.stringValue }, ["a", "b"], "title outranks tags.name when both match whole")
        XCTAssertEqual(found["hits"]?.arrayValue?.first?["document"]?[FieldNames.record], .string(texts[0]))

        let near = try node.search(["q": "*", "filter_by": "_q_geo:(48.86,2.35,5 km)"])
        XCTAssertEqual(near["hits"]?.arrayValue?.compactMap { $0["document"]?["id"]?.stringValue }, ["a"])
    }

    /// Words split where the engine splits them: at ASCII punctuation inside a word too.
    func testWordsSplitAtPunctuationAsInTheEngine() throws {
        let node = try LiveCollection.start()
        defer { node.stop() }
        let texts = ["boom-and-bust cycle", "e-mail me, don't wait", "snake_case and a.b.c", "(paren)[bracket]/slash"]
        let records: [JSONObject] = texts.enumerated().map { ["objectID": .string(String($0.offset)), "text": .string($0.element)] }
        let fields = try node.index(records, settings: IndexSettings())
        let queryBy = SearchableFields(settings: IndexSettings(), collectionFields: fields).queryBy
        for (query, expected) in [("bust", ["0"]), ("boomand", []), ("mail", ["1"]), ("email", []), ("case", ["2"]), ("b", ["2"]),
                                  ("bracket", ["3"]), ("slash", ["3"])] {
            let found = try node.search(["q": .string(query), "query_by": .string(queryBy), "prefix": false, "num_typos": 0, "split_join_tokens": "off"])
            XCTAssertEqual(found["hits"]?.arrayValue?.compactMap { $0["document"]?["id"]?.stringValue }, expected, query)
        }
    }

    /// Texts that differ only in case or accents are counted apart, as the engine counts them.
    func testFacetValuesDifferingInCaseOrAccentsAreCountedApart() throws {
        let node = try LiveCollection.start()
        defer { node.stop() }
        let settings = try IndexSettings(json: ["attributesForFaceting": ["color"]])
        let colors = ["Red", "red", "red", "RED", "Café", "Cafe"]
        let records: [JSONObject] = colors.enumerated().map { ["objectID": .string(String($0.offset)), "color": .string($0.element)] }
        _ = try node.index(records, settings: settings)
        let answer = try node.search(["q": "*", "facet_by": "f_color", "max_facet_values": 10])
        let counts = Dictionary(uniqueKeysWithValues: ResponseAssembly.facetCounts(answer, field: "f_color"))
        XCTAssertEqual(counts, ["Red": 1, "red": 2, "RED": 1, "Café": 1, "Cafe": 1])
    }
}
