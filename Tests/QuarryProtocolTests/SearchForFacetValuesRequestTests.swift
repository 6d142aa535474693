import QuarryJSON
import QuarryProtocol
import XCTest

/// `searchForFacetValues` params: the attribute comes as `facetName` (Algolia's name) or `attribute`;
/// everything but `index` and the attribute passes to the engine; a missing attribute or a
/// non-string `facetQuery` is -32602 naming the parameter.
final class SearchForFacetValuesRequestTests: XCTestCase {
    private func request(_ text: String) throws -> SearchForFacetValuesRequest {
        try SearchForFacetValuesRequest(params: Params(try JSONParser.parse(text), method: "searchForFacetValues"))
    }

    func testAttributeUnderEitherNameAndTheRestPassedThrough() throws {
        let algolia = try request(#"{"index":"talks","facetName":"speakers","facetQuery":"gor","filters":"date > 1"}"#)
        XCTAssertEqual(algolia.index, "talks")
        XCTAssertEqual(algolia.attribute, "speakers")
        XCTAssertEqual(algolia.parameters, ["facetQuery": "gor", "filters": "date > 1"])
        XCTAssertEqual(try request(#"{"index":"talks","attribute":"tags"}"#).attribute, "tags")
    }

    func testMissingAttributeOrBadFacetQuery() {
        for (text, parameter) in [(#"{"index":"talks"}"#, "facetName"), (#"{"index":"talks","facetName":"a","facetQuery":3}"#, "facetQuery")] {
            XCTAssertThrowsError(try request(text)) { error in
                XCTAssertEqual((error as? ResponseError)?.code, .invalidParams)
                XCTAssertEqual((error as? ResponseError)?.data?["parameter"]?.stringValue, parameter)
            }
        }
    }
}
