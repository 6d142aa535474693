import QuarryJSON
import XCTest
@testable import QuarryMCP

final class ToolArgumentsTests: XCTestCase {
    let search = ToolCatalogue.searchParameters

    private func error(_ arguments: JSON, _ parameters: [ToolParameter]) -> MCPError? {
        do {
            _ = try ToolArguments(arguments, parameters: parameters)
            return nil
        } catch {
            return error
        }
    }

    func testAcceptsWellFormedArguments() throws {
        let checked = try ToolArguments(["index": "talks", "query": "ocean", "hitsPerPage": 5, "facets": ["tags"]],
                                        parameters: search)
        XCTAssertEqual(checked.string("query"), "ocean")
        XCTAssertEqual(checked.int("hitsPerPage"), 5)
    }

    func testEachProblemNamesItsArgument() {
        let cases: [(JSON, String)] = [
            (["query": "x"], "arguments.index"),
            (["index": 3], "arguments.index"),
            (["index": "t", "hitsPerPage": "10"], "arguments.hitsPerPage"),
            (["index": "t", "hitsPerPage": 1000], "arguments.hitsPerPage"),
            (["index": "t", "page": -1], "arguments.page"),
            (["index": "t", "facets": ["tags", 2]], "arguments.facets[1]"),
            (["index": "t", "facets": []], "arguments.facets"),
            (["index": "t", "hitsPerPag": 10], "arguments.hitsPerPag"),
        ]
        for (arguments, parameter) in cases {
            let found = error(arguments, search)
            XCTAssertEqual(found?.code, -32602, "\(arguments)")
            XCTAssertEqual(found?.data?["parameter"]?.stringValue, parameter, "\(arguments)")
            XCTAssertTrue(found?.message.hasPrefix(parameter) ?? false, found?.message ?? "")
        }
    }

    func testNestedQueriesAreCheckedWithTheirPath() {
        let multi = ToolCatalogue.all.first { $0.name == "multi_search" }?.parameters ?? []
        let found = error(["queries": [["index": "a"], ["query": "b"]]], multi)
        XCTAssertEqual(found?.data?["parameter"]?.stringValue, "arguments.queries[1].index")
    }

    func testArgumentsMustBeAnObject() {
        XCTAssertEqual(error(["a", "b"], search)?.data?["parameter"]?.stringValue, "arguments")
        XCTAssertNil(error(nil, ToolCatalogue.all.first { $0.name == "list_indices" }?.parameters ?? []))
    }
}
