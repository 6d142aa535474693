import QuarryTypesense
import XCTest

final class FieldNamesTests: XCTestCase {
    func testPathsRoundTripThroughFieldNames() {
        for path in ["brand", "categories.lvl0", "_tags", "prix_€", "a b", ""] {
            XCTAssertEqual(FieldNames.attribute(ofField: FieldNames.facet(path)), path)
            XCTAssertEqual(FieldNames.attribute(ofField: FieldNames.searchable(path)), path)
        }
        XCTAssertEqual(FieldNames.facet("categories.lvl0"), "f_categories_2Elvl0")
        XCTAssertNil(FieldNames.attribute(ofField: FieldNames.record))
    }

    func testEncodedNamesHoldOnlyLettersDigitsAndUnderscores() {
        let encoded = FieldNames.encode("a.b/c_d é")
        XCTAssertTrue(encoded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }, encoded)
    }
}
