import QuarryFilters
import QuarrySession
import XCTest

/// The filter state (protocol/sessions.md):
/// 1. a group is its name and its kind: and("x"), or("x", facet) and or("x", numeric) are three groups;
/// 2. add has set semantics; toggle removes a present filter and adds a missing one;
/// 3. an empty group disappears; remove-everywhere, clear one, clear except, clear all;
/// 4. an or-group refuses a filter of another type;
/// 5. rendering: groups by name in code-point order, or before and for one name, filters by rendered
///    text, every group parenthesised, ` AND ` between groups, names and strings quoted with `"` escaped,
///    `NOT ` prefix, empty state renders as "".
final class FilterStateTests: XCTestCase {
    let red = FilterAtom.facet("color", "red")
    let blue = FilterAtom.facet("color", "blue")
    let cheap = FilterAtom.comparison("price", .less, 20)

    func testGroupsAreIdentifiedByNameAndKind() throws {
        var state = FilterState()
        try state.add(red, to: .and("x"))
        try state.add(red, to: .or("x", .facet))
        try state.add(cheap, to: .or("x", .numeric))
        XCTAssertEqual(state.groups.count, 3)
        XCTAssertEqual(state.orderedGroupIDs, [.or("x", .facet), .or("x", .numeric), .and("x")])
        state.remove(red, from: .and("x"))
        XCTAssertTrue(state.contains(red, in: .or("x", .facet)))
        XCTAssertFalse(state.contains(red, in: .and("x")))
    }

    func testAddIsASetAndToggleFlips() throws {
        var state = FilterState()
        try state.add(red, to: .or("colors", .facet))
        try state.add(red, to: .or("colors", .facet))
        XCTAssertEqual(state.filters(in: .or("colors", .facet)).count, 1)
        XCTAssertTrue(try state.toggle(blue, in: .or("colors", .facet)))
        XCTAssertFalse(try state.toggle(red, in: .or("colors", .facet)))
        XCTAssertEqual(state.filters(in: .or("colors", .facet)), [blue])
        XCTAssertFalse(try state.toggle(blue, in: .or("colors", .facet)))
        XCTAssertTrue(state.isEmpty, "a group left empty disappears")
    }

    func testRemoveEverywhereAndClears() throws {
        var state = FilterState()
        try state.add(red, to: .and("a"))
        try state.add(red, to: .or("b", .facet))
        try state.add(cheap, to: .and("c"))
        state.removeEverywhere(red)
        XCTAssertEqual(state.orderedGroupIDs, [.and("c")])
        try state.add(red, to: .and("a"))
        try state.add(blue, to: .and("b"))
        state.clear(where: { $0 != .and("b") })
        XCTAssertEqual(state.orderedGroupIDs, [.and("b")], "clear all but b")
        state.clear(.and("b"))
        XCTAssertTrue(state.isEmpty)
        try state.add(red, to: .and("a"))
        state.clearAll()
        XCTAssertTrue(state.isEmpty)
    }

    func testOrGroupTakesOneTypeOnly() {
        var state = FilterState()
        XCTAssertThrowsError(try state.add(cheap, to: .or("x", .facet)))
        XCTAssertEqual(FilterGroupID.group(named: "x", join: .or, for: cheap), .or("x", .numeric))
        XCTAssertEqual(FilterGroupID.group(named: "x", join: .and, for: cheap), .and("x"))
    }

    func testRenderingOrderAndQuoting() throws {
        var state = FilterState()
        XCTAssertEqual(state.rendered(), "")
        try state.add(.comparison("price", .greater, 10), to: .and("price"))
        try state.add(.comparison("price", .less, 20), to: .and("price"))
        try state.add(.facet("category", "table"), to: .or("category", .facet))
        try state.add(.facet("category", "chair"), to: .or("category", .facet))
        XCTAssertEqual(state.rendered(),
                       #"( "category":"chair" OR "category":"table" ) AND ( "price" < 20 AND "price" > 10 )"#)
        var quoted = FilterState()
        try quoted.add(.facet(#"say "hi""#, .string(#"a "b" \c"#), negated: true), to: .and("q"))
        try quoted.add(.tag("new"), to: .and("Q"))  // "Q" < "q" in code-point order
        try quoted.add(.range("size", 1.5, 3), to: .or("q", .numeric))
        XCTAssertEqual(quoted.rendered(),
                       #"( "_tags":"new" ) AND ( "size":1.5 TO 3 ) AND ( NOT "say \"hi\"":"a \"b\" \\c" )"#)
    }

    func testSameNameOrBeforeAnd() throws {
        var state = FilterState()
        try state.add(red, to: .and("x"))
        try state.add(blue, to: .or("x", .facet))
        XCTAssertEqual(state.rendered(), #"( "color":"blue" ) AND ( "color":"red" )"#)
    }

    func testEngineSplitKeepsDisjunctiveOrGroupsApart() throws {
        var state = FilterState()
        try state.add(red, to: .or("colors", .facet))
        try state.add(blue, to: .or("colors", .facet))
        try state.add(.facet("brand", "acme"), to: .or("brands", .facet))
        try state.add(cheap, to: .or("prices", .numeric))
        try state.add(.facet("size", "M"), to: .or("mixed", .facet))
        try state.add(.facet("kind", "x"), to: .or("mixed", .facet))
        try state.add(.facet("stock", true), to: .and("stock"))
        // What a search is asked equals what these `filters` strings parse to.
        let (filter, disjunctive) = state.searchFilters()
        XCTAssertEqual(filter, try FilterParser.parse(#"( "kind":"x" OR "size":"M" ) AND ( "stock":true )"#))
        XCTAssertEqual(disjunctive.map(\.attribute), ["brand", "color", "price"], "a numeric or-group is a range slider's")
        XCTAssertEqual(disjunctive.map(\.filter), [try FilterParser.parse(#"( "brand":"acme" )"#),
                                                   try FilterParser.parse(#"( "color":"blue" OR "color":"red" )"#),
                                                   try FilterParser.parse(#"( "price" < 20 )"#)])
    }
}
