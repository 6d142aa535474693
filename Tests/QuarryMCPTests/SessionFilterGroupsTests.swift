import QuarryJSON
import XCTest
@testable import QuarryMCP

final class SessionFilterGroupsTests: XCTestCase {
    func testConditionsBecomeAndGroupsAndOrsBecomeOrGroups() throws {
        let groups = try SessionFilterGroups.groups(from: "(tags:ocean OR tags:climate) AND duration > 600 AND NOT event:TEDx")
        XCTAssertEqual(groups, [
            ["name": "tags", "operator": "or", "filters": [["attribute": "tags", "value": "ocean"], ["attribute": "tags", "value": "climate"]]],
            ["name": "duration", "operator": "and", "filters": [["attribute": "duration", "operator": ">", "value": 600.0]]],
            ["name": "event", "operator": "and", "filters": [["attribute": "event", "value": "TEDx", "negated": true]]],
        ])
    }

    func testAnOrGroupNeverTakesAnAndGroupsName() throws {
        let groups = try SessionFilterGroups.groups(from: "tags:a AND (tags:b OR tags:c)").arrayValue ?? []
        XCTAssertEqual(Set(groups.compactMap { $0["name"]?.stringValue }), ["tags", "tags (2)"])
    }

    func testEmptyFiltersClearEveryGroup() throws {
        XCTAssertEqual(try SessionFilterGroups.groups(from: ""), [])
    }

    func testAnOrOfTwoKindsIsRefusedWithAReason() {
        XCTAssertThrowsError(try SessionFilterGroups.groups(from: "tags:a OR duration > 3")) { error in
            let message = (error as? ToolFailure)?.message ?? ""
            XCTAssertTrue(message.contains("cannot mix") && message.contains("at character 10"), message)
        }
    }

    func testASyntaxErrorGivesItsPosition() {
        XCTAssertThrowsError(try SessionFilterGroups.groups(from: "tags:a AND (")) { error in
            XCTAssertTrue((error as? ToolFailure)?.message.contains("at character 12") ?? false, "\(error)")
        }
    }
}
