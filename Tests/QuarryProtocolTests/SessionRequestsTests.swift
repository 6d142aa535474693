import QuarryJSON
import QuarryProtocol
import XCTest

/// The session methods' wire types:
/// 1. every filter shape and group reference parses, and a mismatch names the nested parameter;
/// 2. openSession's searchers, setFilters' two forms, clearFilters' selectors and loadPage's required fields;
/// 3. the notifications and change replies are written exactly as the protocol pages show them.
final class SessionRequestsTests: XCTestCase {
    private func params(_ text: String, method: String) throws -> Params {
        try Params(try JSONParser.parse(text), method: method)
    }

    private func assertInvalid<T>(_ body: @autoclosure () throws -> T, parameter: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? ResponseError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.code, .invalidParams, file: file, line: line)
            XCTAssertEqual(error.data?["parameter"]?.stringValue, parameter, file: file, line: line)
            XCTAssertTrue(error.message.contains("'\(parameter)'"), error.message, file: file, line: line)
        }
    }

    func testFilterShapes() throws {
        let request = try ToggleFilterRequest(params: params(#"""
            {"session":"s","filter":{"attribute":"price","operator":">=","value":10,"negated":true},
             "group":{"name":"p","operator":"and"},"selectionMode":"single",
             "items":[{"attribute":"c","value":"red"},{"attribute":"n","lower":1,"upper":2.5},{"tag":"new"},{"attribute":"b","value":true}]}
            """#, method: "toggleFilter"))
        XCTAssertEqual(request.filter, SessionFilter(.comparison(attribute: "price", operator: ">=", value: 10), negated: true))
        XCTAssertEqual(request.group, SessionGroupReference(name: "p", op: .and))
        XCTAssertEqual(request.selectionMode, .single)
        XCTAssertEqual(request.items, [
            SessionFilter(.facet(attribute: "c", value: .string("red"))),
            SessionFilter(.range(attribute: "n", lower: 1, upper: 2.5)),
            SessionFilter(.tag("new")),
            SessionFilter(.facet(attribute: "b", value: .bool(true))),
        ])
    }

    func testMismatchesNameTheNestedParameter() throws {
        let method = "toggleFilter"
        assertInvalid(try ToggleFilterRequest(params: params(#"{"session":"s","filter":{"attribute":"a"},"group":{"name":"g","operator":"or"}}"#, method: method)),
                      parameter: "filter.value")
        assertInvalid(try ToggleFilterRequest(params: params(#"{"session":"s","filter":{"attribute":"a","operator":"~","value":1},"group":{"name":"g","operator":"or"}}"#, method: method)),
                      parameter: "filter.operator")
        assertInvalid(try ToggleFilterRequest(params: params(#"{"session":"s","filter":{"tag":"x"},"group":{"name":"g"}}"#, method: method)),
                      parameter: "group.operator")
        assertInvalid(try ToggleFilterRequest(params: params(#"{"session":"s","filter":{"tag":"x"},"group":{"name":"g","operator":"and"},"items":[{"tag":3}]}"#, method: method)),
                      parameter: "items[0].tag")
        assertInvalid(try OpenSessionRequest(params: params(#"{"searchers":[{"type":"hits","index":"a","hitsPerPage":5000}]}"#, method: "openSession")),
                      parameter: "searchers[0].hitsPerPage")
        assertInvalid(try OpenSessionRequest(params: params(#"{"searchers":[{"type":"grid","index":"a"}]}"#, method: "openSession")),
                      parameter: "searchers[0].type")
        assertInvalid(try SetQueryRequest(params: params(#"{"session":"s"}"#, method: "setQuery")), parameter: "query")
        assertInvalid(try LoadPageRequest(params: params(#"{"session":"s","searcher":"s1","page":1}"#, method: "loadPage")),
                      parameter: "stateVersion")
        assertInvalid(try ClearFiltersRequest(params: params(#"{"session":"s","groups":["a"],"except":["b"]}"#, method: "clearFilters")),
                      parameter: "except")
    }

    func testOpenSessionAndSetFiltersForms() throws {
        let open = try OpenSessionRequest(params: params(
            #"{"session":"s","searchers":[{"type":"hits","index":"a","facets":["x"]},{"type":"facets","index":"b","attribute":"y"}]}"#,
            method: "openSession"))
        XCTAssertEqual(open.session, "s")
        XCTAssertEqual(open.searchers.count, 2)
        guard case .facets(let facets) = open.searchers[1] else { return XCTFail("facets expected") }
        XCTAssertEqual([facets.index, facets.attribute], ["b", "y"])
        XCTAssertNil(try OpenSessionRequest(params: params("{}", method: "openSession")).session)

        let one = try SetFiltersRequest(params: params(#"{"session":"s","group":{"name":"g","operator":"or"},"filters":[]}"#, method: "setFilters"))
        XCTAssertEqual(one.group?.reference, SessionGroupReference(name: "g", op: .or))
        let all = try SetFiltersRequest(params: params(#"{"session":"s","groups":[{"name":"g","operator":"and","filters":[{"tag":"t"}]}]}"#, method: "setFilters"))
        XCTAssertNil(all.group)
        XCTAssertEqual(all.groups.first?.filters, [SessionFilter(.tag("t"))])

        let clear = try ClearFiltersRequest(params: params(#"{"session":"s","groups":["a",{"name":"b","operator":"hierarchical"}]}"#, method: "clearFilters"))
        XCTAssertEqual(clear.groups, [SessionGroupReference(name: "a", op: nil), SessionGroupReference(name: "b", op: .hierarchical)])
    }

    func testNotificationsAndRepliesAsThePagesShowThem() {
        let state = StateChangedNotification(session: "docs", stateVersion: 2, state: ["query": "mu"])
        XCTAssertEqual(JSONWriter.string(state.message),
                       #"{"jsonrpc":"2.0","method":"stateChanged","params":{"session":"docs","stateVersion":2,"state":{"query":"mu"}}}"#)
        let results = ResultsUpdatedNotification(session: "docs", stateVersion: 2, results: [["searcher": "s1"]])
        XCTAssertEqual(JSONWriter.string(results.message),
                       #"{"jsonrpc":"2.0","method":"resultsUpdated","params":{"session":"docs","stateVersion":2,"results":[{"searcher":"s1"}]}}"#)
        XCTAssertEqual(JSONWriter.string(SessionChangeResponse(session: "docs", stateVersion: 7, searcher: "s3").json),
                       #"{"session":"docs","stateVersion":7,"searcher":"s3"}"#)
    }
}
