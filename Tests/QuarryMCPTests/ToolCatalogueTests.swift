import QuarryJSON
import XCTest
@testable import QuarryMCP

final class ToolCatalogueTests: XCTestCase {
    func testWritesAreListedOnlyWhenAllowed() {
        let writes = ["save_objects", "delete_objects", "import_file"]
        XCTAssertTrue(ToolCatalogue.tools(allowWrites: false).allSatisfy { !writes.contains($0.name) })
        XCTAssertEqual(ToolCatalogue.tools(allowWrites: true).filter { writes.contains($0.name) }.count, 3)
        XCTAssertNil(ToolCatalogue.tool(named: "save_objects", allowWrites: false))
    }

    func testEveryToolHasObjectSchemasWhoseRequiredArgumentsExist() {
        for tool in ToolCatalogue.all {
            for schema in [tool.inputSchema, tool.outputSchema] {
                XCTAssertEqual(schema["type"], "object", tool.name)
                let properties = schema["properties"]?.objectValue ?? [:]
                for required in schema["required"]?.arrayValue ?? [] {
                    XCTAssertNotNil(properties[required.stringValue ?? ""], "\(tool.name): \(required)")
                }
            }
        }
    }

    func testNamesAreUniqueAndInMCPsAlphabet() {
        let names = ToolCatalogue.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        for name in names {
            XCTAssertTrue(name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }, name)
        }
    }
}
