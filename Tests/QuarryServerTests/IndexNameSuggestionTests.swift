@testable import QuarryServer
import XCTest

/// "Did you mean": 1. a typo, a swap or a case slip finds the name meant; 2. nothing far off is
/// suggested, nor the missing name itself; 3. among equally close names, the first in byte order.
final class IndexNameSuggestionTests: XCTestCase {
    func testFindsTheNameMeant() {
        let names = ["talks", "speakers", "talks_date_asc", "products"]
        XCTAssertEqual(IndexNameSuggestion.closest(to: "talkz", among: names), "talks")
        XCTAssertEqual(IndexNameSuggestion.closest(to: "tlaks", among: names), "talks")
        XCTAssertEqual(IndexNameSuggestion.closest(to: "Products", among: names), "products")
        XCTAssertEqual(IndexNameSuggestion.closest(to: "speaker", among: names), "speakers")
    }

    func testSuggestsNothingFarOff() {
        XCTAssertNil(IndexNameSuggestion.closest(to: "zzzzzzzz", among: ["talks", "speakers"]))
        XCTAssertNil(IndexNameSuggestion.closest(to: "ab", among: ["xy"]))
        XCTAssertNil(IndexNameSuggestion.closest(to: "talks", among: []))
    }

    func testTiesGoToTheFirstInByteOrder() {
        XCTAssertEqual(IndexNameSuggestion.closest(to: "cat", among: ["cut", "bat", "cot"]), "bat")
    }
}
