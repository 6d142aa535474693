import QuarryEngine
import QuarryFilters
import QuarryJSON
@testable import QuarryTypesense
import XCTest
import QuarrySearchContract

final class DocumentBuilderTests: XCTestCase {
    private func record(_ text: String) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(text) else { throw XCTSkip("not an object") }
        return object
    }

    private func settings(_ text: String) throws -> IndexSettings {
        try IndexSettings(json: try record(text))
    }

    private func strings(_ value: JSON?) -> [String]? { value?.arrayValue?.compactMap(\.stringValue) }

    func testRecordTravelsWholeAndIdIsTheObjectID() throws {
        let source = #"{"objectID":"7","b":[1,{"c":null}],"a":"x"}"#
        let doc = try DocumentBuilder(settings: IndexSettings()).document(for: try record(source))
        XCTAssertEqual(doc["id"], .string("7"))
        XCTAssertEqual(doc[FieldNames.record], .string(source))
        XCTAssertThrowsError(try DocumentBuilder(settings: IndexSettings()).document(for: ["objectID": .int(7)]))
    }

    func testSearchableSlotsFollowTheEngineLayoutInOrder() throws {
        let builder = DocumentBuilder(settings: try settings(#"{"searchableAttributes":["title","unordered(tags.name)","count"]}"#))
        let doc = try builder.document(for: try record(
            #"{"objectID":"1","title":"Hello","tags":[{"name":"b"},{"name":"a"}],"count":10.5,"other":"no","flag":true}"#))
        XCTAssertEqual(strings(doc["s_title"]), ["Hello"])
        XCTAssertEqual(strings(doc[FieldNames.searchable("tags.name")]), ["b", "a"])
        XCTAssertEqual(strings(doc["s_count"]), ["10.5"])
        XCTAssertNil(doc["s_other"])

        let dynamic = try DocumentBuilder(settings: IndexSettings()).document(for: try record(
            #"{"objectID":"1","title":"Hi","nested":{"x":"a","y":[2,"b"]},"flag":true}"#))
        XCTAssertEqual(strings(dynamic["s_nested"]), ["a", "2", "b"])
        XCTAssertNil(dynamic["s_flag"], "booleans are not searchable text")
        XCTAssertNil(dynamic["s_objectID"])
    }

    /// A facet field's texts, without the mark that keeps texts apart which Typesense folds alike.
    private func facetTexts(_ value: JSON?) -> [String]? {
        strings(value)?.map(FacetText.decode)
    }

    func testFacetValuesCarryAMarkOfTheirExactText() {
        XCTAssertNotEqual(FacetText.encode("Red").lowercased(), FacetText.encode("red"))
        XCTAssertNotEqual(FacetText.encode("Café"), FacetText.encode("Cafe"))
        for text in ["Red", "", "a\u{E002}b", "10.5", "Café", "e\u{301}", "\u{E002}", "日本\u{E002}"] {
            XCTAssertEqual(FacetText.decode(FacetText.encode(text)), text)
        }
        XCTAssertEqual(FacetText.decode("plain"), "plain", "a value without the mark is returned as it is")
    }

    func testFacetsRenderValuesAsTheEngineDoes() throws {
        let builder = DocumentBuilder(settings: try settings(
            #"{"attributesForFaceting":["searchable(brand)","filterOnly(meta.kind)","afterDistinct(size)"],"attributeForDistinct":"group"}"#))
        let doc = try builder.document(for: try record(
            #"{"objectID":"1","brand":["Acme",10,10.5,true,"Acme",null],"meta":{"kind":"k"},"size":1e20,"group":"g","_tags":["A","a"]}"#))
        XCTAssertEqual(facetTexts(doc["f_brand"]), ["Acme", "10", "10.5", "true"])
        XCTAssertEqual(facetTexts(doc[FieldNames.facet("meta.kind")]), ["k"])
        XCTAssertEqual(facetTexts(doc["f_size"]), ["1e+20"])
        XCTAssertEqual(facetTexts(doc["f_group"]), ["g"])
        XCTAssertEqual(facetTexts(doc[FieldNames.facet("_tags")]), ["A", "a"])
        let keys = Set(strings(doc[FilterKeys.field]) ?? [])
        XCTAssertTrue(keys.isSuperset(of: [
            FilterKeys.facet("brand", text: "acme"), FilterKeys.facetNumber("brand", 10), FilterKeys.tag("A"), FilterKeys.tag("a"),
        ]))
    }

    func testNumbersAreCollectedPerPathWithTheFirstForSorting() throws {
        let doc = try DocumentBuilder(settings: IndexSettings()).document(for: try record(
            #"{"objectID":"1","price":[3,-1.5],"flag":true,"s":"5","a":{"b":{"c":2}},"deep":{"a":{"b":{"c":{"d":1}}}}}"#))
        XCTAssertEqual(doc["n_price"], .array([.double(3), .double(-1.5)]))
        XCTAssertEqual(doc["o_price"], .double(3))
        XCTAssertNil(doc["n_flag"], "booleans never match numeric filters in the engine")
        XCTAssertNil(doc["n_s"], "nor do numeric strings")
        XCTAssertEqual(doc[FieldNames.numeric("a.b.c")], .array([.double(2)]))
        XCTAssertNil(doc[FieldNames.numeric("deep.a.b.c.d")], "past the engine's numeric depth")
        let keys = Set(strings(doc[FilterKeys.field]) ?? [])
        XCTAssertTrue(keys.isSuperset(of: [
            FilterKeys.hasNumber("price"), FilterKeys.severalNumbers("price"), FilterKeys.number("price", 3), FilterKeys.number("price", -1.5),
        ]))
        XCTAssertEqual(doc[NumericBounds.lowest("price")], .double(-1.5))
        XCTAssertEqual(doc[NumericBounds.highest("price")], .double(3))
        XCTAssertNil(doc[NumericBounds.lowest("a.b.c")], "bounds only where a record holds several numbers")
        XCTAssertFalse(keys.contains(FilterKeys.severalNumbers("a.b.c")))
        XCTAssertFalse(keys.contains(FilterKeys.hasNumber("flag")))
    }

    func testPresentPathsAndGeo() throws {
        let doc = try DocumentBuilder(settings: IndexSettings()).document(for: try record(
            #"{"objectID":"1","a":{"b":1},"c":[{"d":2}],"_geoloc":[{"lat":1,"lng":"2"},{"lat":"x","lng":1},{"lat":95,"lng":0}]}"#))
        XCTAssertEqual(strings(doc[FieldNames.present]), ["objectID", "a", "a.b", "c", "c.d", "_geoloc", "_geoloc.lat", "_geoloc.lng"])
        XCTAssertEqual(doc[FieldNames.geo], .array([.array([.double(1), .double(2)]), .array([.double(95), .double(0)])]))
    }
}
