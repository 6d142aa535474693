@testable import QuarryProtocol
import XCTest

/// "Did you mean": 1. a typo, a swap or a case slip finds the name meant; 2. nothing far off is
/// suggested, nor the missing name itself; 3. among equally close names, the first in byte order.
final class NameSuggestionTests: XCTestCase {
    func testFindsTheNameMeant() {
        let names = ["talks", "speakers", "talks_date_asc", "products"]
        XCTAssertEqual(NameSuggestion.closest(to: "talkz", among: names), "talks")
        XCTAssertEqual(NameSuggestion.closest(to: "tlaks", among: names), "talks")
        XCTAssertEqual(NameSuggestion.closest(to: "Products", among: names), "products")
        XCTAssertEqual(NameSuggestion.closest(to: "speaker", among: names), "speakers")
    }

    func testSuggestsNothingFarOff() {
        XCTAssertNil(NameSuggestion.closest(to: "zzzzzzzz", among: ["talks", "speakers"]))
        XCTAssertNil(NameSuggestion.closest(to: "ab", among: ["xy"]))
        XCTAssertNil(NameSuggestion.closest(to: "talks", among: []))
    }

    func testTiesGoToTheFirstInByteOrder() {
        XCTAssertEqual(NameSuggestion.closest(to: "cat", among: ["cut", "bat", "cot"]), "bat")
    }

    func testASessionOrIndexOneLetterShortIsFound() {
        XCTAssertEqual(NameSuggestion.closest(to: "talk", among: ["people", "talks"]), "talks")
        XCTAssertNil(NameSuggestion.closest(to: "zzzzzz", among: ["talks"]))
    }
}
