import QuarryEngine
import QuarryJSON
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

final class SchemaTests: XCTestCase {
    func testCollectionBodyDeclaresTheFixedAndWildcardFields() {
        let body = CollectionSchema.body(collection: "quarry_x_1", settings: IndexSettings())
        XCTAssertEqual(body["name"], .string("quarry_x_1"))
        let fields = body["fields"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let types = Dictionary(uniqueKeysWithValues: fields.compactMap { f in f["name"]?.stringValue.map { ($0, f["type"]?.stringValue ?? "") } })
        XCTAssertEqual(types, [
            "_q_record": "string", "_q_present": "string[]", "_q_filter": "string[]", "_q_geo": "geopoint[]", "_q_distinct": "string",
            "s_.*": "string[]", "f_.*": "string[]", "n_.*": "float[]", "o_.*": "float", "lo_.*": "float", "hi_.*": "float",
        ])
        XCTAssertEqual(fields.first { $0["name"] == .string("_q_record") }?["index"], .bool(false))
        XCTAssertEqual(fields.first { $0["name"] == .string("f_.*") }?["facet"], .bool(true))
    }

    func testSearchableFieldsFollowSettingsAndKeepOnlyExistingFields() throws {
        guard case .object(let json) = try JSONParser.parse(#"{"searchableAttributes":["title","a,b","missing","c"]}"#) else { return }
        let fields = SearchableFields(settings: try IndexSettings(json: json), collectionFields: ["s_c", "s_b", "s_a", "s_title", "f_x"])
        XCTAssertEqual(fields.fields, ["s_title", "s_a", "s_b", "s_c"])
        XCTAssertEqual(fields.weights, [15, 14, 14, 12])
        XCTAssertEqual(fields.queryBy, "s_title,s_a,s_b,s_c")

        let dynamic = SearchableFields(settings: IndexSettings(), collectionFields: ["_q_record", "s_b", "n_x", "s_a", "s_.*"])
        XCTAssertEqual(dynamic.fields, ["s_b", "s_a"])
        XCTAssertEqual(dynamic.weights, [15, 14])
    }
}
