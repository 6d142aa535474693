import QuarryEngine
import QuarryFilters
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Filtering in the engine:
/// 1. facet values match ignoring case, tags exactly, arrays when any element does, nested attributes by path;
/// 2. the array forms are ANDed with `filters`; nested arrays OR; `attr:-value` negates;
/// 3. numeric filters need no declaration and never match records without a number;
/// 4. a facet filter on an undeclared attribute is an error naming the attribute and the setting;
/// 5. on random filters, the engine keeps exactly the records `FilterMatcher` keeps (with and without a query).
final class FilteringTests: XCTestCase {
    let fixture = FacetFixtures.fixture

    private func ids(_ parameters: JSONObject) -> Set<String> { ids("", parameters) }

    private func ids(_ query: String, _ parameters: JSONObject) -> Set<String> {
        Set(fixture.search(query, parameters.merging(["hitsPerPage": 100]) { a, _ in a })?.ids ?? [])
    }

    func testFacetTagArrayAndNestedMatching() {
        XCTAssertEqual(ids(["filters": "color:RED"]), ["1", "3", "6"])
        XCTAssertEqual(ids(["filters": "_tags:sale"]), ["1", "5", "6"], "tags are case-sensitive")
        XCTAssertEqual(ids(["filters": "Sale"]), ["3"])
        XCTAssertEqual(ids(["filters": "sizes:M"]), ["1", "2", "5"])
        XCTAssertEqual(ids(["filters": "maker.name:zeta"]), ["3", "4"])
        XCTAssertEqual(ids(["filters": "price:10"]), ["1"], "a facet value compares numbers by value")
        XCTAssertEqual(ids(["filters": "NOT color:red AND price:20 TO 60"]), ["2", "4", "5"])
    }

    func testArrayFormsAreAndedWithFilters() {
        XCTAssertEqual(ids(["facetFilters": [["color:Blue", "color:Green"], "sizes:-L"]]), ["2", "4"])
        XCTAssertEqual(ids(["filters": "price > 15", "facetFilters": ["color:red"], "numericFilters": ["price<=50"]]), ["3"])
        XCTAssertEqual(ids(["tagFilters": [["new", "Sale"]]]), ["2", "3", "5"])
        XCTAssertEqual(ids("shirt", ["tagFilters": ["-sale"]]), ["2", "4"])
    }

    func testNumericFiltersNeedNoDeclaration() throws {
        let plain = SearchFixture([["n": 1, "name": "a"], ["n": [5, 7], "name": "b"], ["name": "c"], ["n": "3", "name": "d"]])
        XCTAssertEqual(Set(plain.ids("", ["numericFilters": ["n>=5"]])), ["1"])
        XCTAssertEqual(Set(plain.ids("", ["filters": "n != 1"])), ["1"], "records without a number never match")
        XCTAssertEqual(Set(plain.ids("", ["filters": "NOT n = 1"])), ["1", "2", "3"])
    }

    func testUndeclaredFacetAttributeIsAnErrorNamingTheSetting() {
        for parameters: JSONObject in [["filters": "brand:x"], ["facetFilters": ["brand:x"]], ["disjunctiveFilters": ["brand": "brand:x"]]] {
            var json = parameters
            json["query"] = ""
            XCTAssertThrowsError(try SearchParameters(json: json, settings: FacetFixtures.settings)) { error in
                guard case BackendError.invalidParameter(_, let expected) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(expected.contains("'brand'") && expected.contains("attributesForFaceting"), expected)
            }
        }
        XCTAssertThrowsError(try SearchParameters(json: ["filters": "color:"], settings: FacetFixtures.settings)) { error in
            XCTAssertTrue("\(error)".contains("expected a value after ':'"), "\(error)")
        }
    }

    func testRandomFiltersSelectWhatTheMatcherSelects() throws {
        var random = SystemRandomNumberGenerator()
        let colors = ["red", "Blue", "GREEN", "x"], tags = ["sale", "Sale", "new"]
        for _ in 0..<200 {
            var clauses: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let not = Bool.random(using: &random) ? "NOT " : ""
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let a = colors.randomElement(using: &random) ?? "red", b = colors.randomElement(using: &random) ?? "red"
                    clauses.append("(\(not)color:\(a) OR color:\(b))")
                case 1: clauses.append("\(not)price \(["<", "<=", "=", "!=", ">=", ">"].randomElement(using: &random) ?? "<") \(Int.random(in: 0...70, using: &random))")
                case 2: clauses.append("\(not)_tags:\(tags.randomElement(using: &random) ?? "new")")
                default: clauses.append("\(not)sizes:\(["S", "m", "L"].randomElement(using: &random) ?? "S")")
                }
            }
            let text = clauses.joined(separator: " AND ")
            let matcher = FilterMatcher(try FilterParser.parse(text))
            let expected = Set(FacetFixtures.products.filter { matcher.matches(JSONRecordValues($0)) }.compactMap { $0["objectID"]?.stringValue })
            XCTAssertEqual(ids(["filters": .string(text)]), expected, text)
            let shirts = expected.intersection(["1", "2", "4"])
            XCTAssertEqual(ids("shirt", ["filters": .string(text)]), shirts, text)
        }
    }
}
