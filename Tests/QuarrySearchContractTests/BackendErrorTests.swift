import QuarrySearchContract
import XCTest

final class BackendErrorTests: XCTestCase {
    func testDescriptionsNameWhatWasWrong() {
        XCTAssertEqual(BackendError.invalidParameter(name: "page", expected: "a non-negative integer").description,
                       "'page' must be a non-negative integer")
        XCTAssertEqual(BackendError.indexNotFound("talks").description, "index 'talks' does not exist")
    }
}
