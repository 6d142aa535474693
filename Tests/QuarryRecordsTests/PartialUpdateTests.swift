import QuarryJSON
import XCTest
import QuarryRecords
import QuarrySearchContract

/// Partial-update operations, as Algolia defines them:
/// 1. Increment/Decrement add to numbers (absent counts as 0);
/// 2. Add/AddUnique/Remove edit arrays;
/// 3. IncrementFrom/IncrementSet are conditions that can veto the whole update;
/// 4. an unknown operation is an error naming the record and attribute.
final class PartialUpdateTests: XCTestCase {
    func op(_ name: String, _ value: JSON) -> JSON { ["_operation": .string(name), "value": value] }

    func testArithmeticAndArrays() throws {
        let existing: JSONObject = ["n": 5, "x": 1.5, "tags": ["a", "b", "a"]]
        let updated = try PartialUpdate.apply(
            ["n": op("Increment", 2), "x": op("Decrement", 1), "m": op("Increment", 3),
             "tags": op("Remove", "a"), "more": op("Add", "z"), "plain": ["_operation": "Increment"]],
            to: existing, position: "record 1")
        XCTAssertEqual(updated?["n"], 7)
        XCTAssertEqual(updated?["x"], 0.5)
        XCTAssertEqual(updated?["m"], 3)
        XCTAssertEqual(updated?["tags"], ["b"])
        XCTAssertEqual(updated?["more"], ["z"])
        XCTAssertEqual(updated?["plain"], ["_operation": "Increment"], "not an operation without a value: stored as is")
        let unique = try PartialUpdate.apply(["tags": op("AddUnique", "b")], to: ["tags": ["b"]], position: "r")
        XCTAssertEqual(unique?["tags"], ["b"])
    }

    func testConditionalIncrementsCanVetoTheUpdate() throws {
        let stored: JSONObject = ["version": 2, "title": "old"]
        XCTAssertEqual(try PartialUpdate.apply(
            ["version": op("IncrementFrom", 2), "title": "new"], to: stored, position: "r")?["version"], 3)
        XCTAssertNil(try PartialUpdate.apply(["version": op("IncrementFrom", 1), "title": "new"], to: stored, position: "r"))
        XCTAssertEqual(try PartialUpdate.apply(["version": op("IncrementSet", 9)], to: stored, position: "r")?["version"], 9)
        XCTAssertNil(try PartialUpdate.apply(["version": op("IncrementSet", 2)], to: stored, position: "r"))
        XCTAssertNil(try PartialUpdate.apply(["version": op("IncrementFrom", 1)], to: nil, position: "r"),
                     "a missing record is created only from 0")
    }

    func testUnknownOperationIsAnError() {
        XCTAssertThrowsError(try PartialUpdate.apply(["n": op("Multiply", 2)], to: [:], position: "record 4")) {
            XCTAssertEqual($0 as? BackendError, .invalidRecord(position: "record 4", reason: "'n': unknown _operation 'Multiply'"))
        }
    }
}
