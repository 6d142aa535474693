import QuarryFilters
import QuarryJSON
import XCTest

/// Evaluating filters against records:
/// 1. facets compare case-insensitively, numbers and booleans by their text and value;
/// 2. tags compare case-sensitively against `_tags`;
/// 3. numeric operators and ranges only match numeric values;
/// 4. arrays match if any element does; nested paths, arrays of objects;
/// 5. NOT, AND and OR combine as boolean logic; no filter keeps everything;
/// 6. a prepared `FilterMatcher` decides the same as the expression.
final class FilterEvaluationTests: XCTestCase {
    private let chair = JSONRecordValues([
        "name": "Chair", "category": ["Furniture", "Seating"], "price": 10, "rating": 4.5, "inStock": true,
        "code": "007", "sku": "10.0", "_tags": ["New", "sale"], "brand": ["name": "Acme", "country": "FR"],
        "variants": [["color": "Red", "size": 1], ["color": "blue", "size": 3]], "dotted.key": "yes",
        "city": "Zürich", "unit": "\u{212A}",
    ])
    private let lamp = JSONRecordValues([
        "name": "Lamp", "category": "Lighting", "price": "12", "inStock": "TRUE", "_tags": "new",
    ])

    private func check(
        _ text: String, chair expectChair: Bool, lamp expectLamp: Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let expression = try FilterParser.parse(text)
            XCTAssertEqual(expression.matches(chair), expectChair, "\(text) on chair", file: file, line: line)
            XCTAssertEqual(expression.matches(lamp), expectLamp, "\(text) on lamp", file: file, line: line)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
        }
    }

    func testFacets() {
        check("", chair: true, lamp: true)
        check("name:chair", chair: true, lamp: false)
        check("name:CHAIR", chair: true, lamp: false)
        check("category:seating", chair: true, lamp: false)
        check("category:\"lighting\"", chair: false, lamp: true)
        check("price:10", chair: true, lamp: false)
        check("price:\"10\"", chair: true, lamp: false)
        check("price:12", chair: false, lamp: true)
        check("price:12.0", chair: false, lamp: true)
        check("rating:4.5", chair: true, lamp: false)
        check("inStock:true", chair: true, lamp: true)
        check("inStock:false", chair: false, lamp: false)
        check("code:7", chair: true, lamp: false)
        check("code:\"007\"", chair: true, lamp: false)
        check("sku:10", chair: true, lamp: false)
        check("missing:x", chair: false, lamp: false)
        check("brand:acme", chair: false, lamp: false)
        check("city:ZÜRICH", chair: true, lamp: false)
        check("city:zurich", chair: false, lamp: false)
        check("unit:k", chair: true, lamp: false)  // KELVIN SIGN lower-cases to k
        check("name:chai", chair: false, lamp: false)
        check("name:chairs", chair: false, lamp: false)
    }

    func testNestedPathsAndArraysOfObjects() {
        check("brand.name:acme", chair: true, lamp: false)
        check("variants.color:RED", chair: true, lamp: false)
        check("variants.size > 2", chair: true, lamp: false)
        check("variants.size:1 TO 1", chair: true, lamp: false)
        check("dotted.key:yes", chair: true, lamp: false)
        XCTAssertEqual(chair.values(at: "variants.color"), ["Red", "blue"])
        XCTAssertEqual(chair.values(at: "brand.name.first"), [])
        XCTAssertEqual(chair.values(at: "category"), ["Furniture", "Seating"])
    }

    func testTagsAreCaseSensitive() {
        check("New", chair: true, lamp: false)
        check("_tags:new", chair: false, lamp: true)
        check("sale", chair: true, lamp: false)
        check("SALE", chair: false, lamp: false)
        check("NOT new", chair: true, lamp: false)
    }

    func testNumericOnlyMatchesNumbers() {
        check("price = 10", chair: true, lamp: false)
        check("price > 5", chair: true, lamp: false)
        check("price < 100", chair: true, lamp: false)
        check("price >= 10", chair: true, lamp: false)
        check("price <= 9.99", chair: false, lamp: false)
        check("price != 10", chair: false, lamp: false)
        check("price != 11", chair: true, lamp: false)
        check("NOT price = 10", chair: false, lamp: true)
        check("price:10 TO 12", chair: true, lamp: false)
        check("price:10.5 TO 12", chair: false, lamp: false)
        check("rating:4.5 TO 4.5", chair: true, lamp: false)
        check("inStock > 0", chair: false, lamp: false)
        check("name > 0", chair: false, lamp: false)
    }

    func testBooleanCombinations() {
        check("NOT category:seating", chair: false, lamp: true)
        check("NOT missing:x", chair: true, lamp: true)
        check("(name:chair OR name:lamp) AND inStock:true", chair: true, lamp: true)
        check("(name:chair OR name:lamp) AND price > 1", chair: true, lamp: false)
        check("name:chair AND name:lamp", chair: false, lamp: false)
        check("(name:sofa OR NOT name:chair)", chair: false, lamp: true)
        XCTAssertFalse(FilterExpression(clauses: [[]]).matches(chair))
    }

    func testAPreparedMatcherAgreesWithTheExpression() throws {
        let expression = try FilterParser.parse("(category:seating OR category:lighting) AND NOT _tags:sale")
        let matcher = FilterMatcher(expression)
        XCTAssertEqual([chair, lamp].map { matcher.matches($0) }, [false, true])
        XCTAssertEqual([chair, lamp].map { expression.matches($0) }, [false, true])
        XCTAssertTrue(FilterMatcher(.all).matches(chair))
    }

    func testRecordsReturningArraysWholeStillMatchAnyElement() {
        struct Whole: FilterableRecord {
            func values(at path: String) -> [JSON] { path == "sizes" ? [[1, [2, 3]]] : [] }
        }
        XCTAssertTrue(FilterExpression(.comparison("sizes", .equal, 3)).matches(Whole()))
        XCTAssertFalse(FilterExpression(.comparison("sizes", .equal, 4)).matches(Whole()))
    }
}
