import Foundation
import QuarryJSON
import QuarryProtocol
import XCTest

/// Fails when the wire contract in `protocol/` drifts from the code:
/// 1. `protocol/openrpc.json` is OpenRPC 1.2.6 and lists exactly `MessageRegistry.requests`;
/// 2. its `x-notifications` list exactly the registry's client and server notifications, with their direction;
/// 3. every method has a page `protocol/methods/<page name>.md` with the fixed sections, in order;
/// 4. every page's example messages are valid JSON, one message per line, and one of them is this method;
/// 5. `protocol/README.md` links every page;
/// 6. replies the wire types produce on their own (`initialize`, a cancelled request) appear in the pages byte for byte.
///
/// Page names: the method name with a leading `$/` dropped and any other `/`
/// turned into `-` (`$/cancelRequest` → `cancelRequest.md`, `session/open` →
/// `session-open.md`). Two methods may not map to one page.
final class OpenRPCTests: XCTestCase {
    static let fixedSections = ["Purpose", "Direction", "Capability", "Params", "Result", "Errors", "Example", "Since"]

    /// Tests/QuarryProtocolTests/OpenRPCTests.swift → the package root, three levels up.
    private static let protocolFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol")

    static func pageName(for method: String) -> String {
        var name = method
        if name.hasPrefix("$/") { name.removeFirst(2) }
        return name.replacingOccurrences(of: "/", with: "-") + ".md"
    }

    private func document() throws -> JSON {
        let data = try Data(contentsOf: Self.protocolFolder.appendingPathComponent("openrpc.json"))
        return try JSONParser.parse([UInt8](data))
    }

    private func names(_ list: JSON?, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        guard let elements = list?.arrayValue else {
            XCTFail("expected an array", file: file, line: line)
            return []
        }
        return elements.map { $0["name"]?.stringValue ?? "<no name>" }
    }

    private var clientNotificationMethods: [String] { MessageRegistry.clientNotifications.map { $0.method } }
    private var serverNotificationMethods: [String] { MessageRegistry.serverNotifications.map { $0.method } }
    private var allMethods: [String] {
        MessageRegistry.requestMethods + clientNotificationMethods + serverNotificationMethods
    }

    func testDocumentIsOpenRPC126() throws {
        let document = try document()
        XCTAssertEqual(document["openrpc"], "1.2.6")
        XCTAssertNotNil(document["info"]?["version"]?.stringValue)
    }

    func testRequestMethodsMatchTheRegistry() throws {
        let documented = names(try document()["methods"])
        XCTAssertEqual(documented.count, Set(documented).count, "a method is listed twice")
        XCTAssertEqual(documented.sorted(), MessageRegistry.requestMethods.sorted())
    }

    func testRequestMethodsDeclareByNameParamsResultAndErrors() throws {
        for method in try document()["methods"]?.arrayValue ?? [] {
            let name = method["name"]?.stringValue ?? "<no name>"
            XCTAssertEqual(method["paramStructure"], "by-name", name)
            XCTAssertNotNil(method["params"]?.arrayValue, "\(name): params")
            for param in method["params"]?.arrayValue ?? [] {
                XCTAssertNotNil(param["schema"]?.objectValue, "\(name).\(param["name"]?.stringValue ?? "?"): schema")
            }
            XCTAssertNotNil(method["result"]?["schema"]?.objectValue, "\(name): result schema")
            XCTAssertNotNil(method["errors"]?.arrayValue, "\(name): errors")
        }
    }

    func testNotificationsMatchTheRegistryWithTheirDirection() throws {
        let notifications = try document()["x-notifications"]?.arrayValue ?? []
        let documented = names(.array(notifications))
        XCTAssertEqual(documented.count, Set(documented).count, "a notification is listed twice")
        XCTAssertEqual(documented.sorted(), (clientNotificationMethods + serverNotificationMethods).sorted())
        for notification in notifications {
            guard let name = notification["name"]?.stringValue else { continue }
            let expected = clientNotificationMethods.contains(name) ? "clientToServer" : "serverToClient"
            XCTAssertEqual(notification["direction"]?.stringValue, expected, name)
            XCTAssertNotNil(notification["params"]?.arrayValue, "\(name): params")
        }
    }

    func testEveryMethodHasAPageWithTheFixedSectionsInOrder() throws {
        let pages = allMethods.map(Self.pageName(for:))
        XCTAssertEqual(pages.count, Set(pages).count, "two methods map to one page")
        for (method, page) in zip(allMethods, pages) {
            let url = Self.protocolFolder.appendingPathComponent("methods").appendingPathComponent(page)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                XCTFail("\(method): no page at protocol/methods/\(page)")
                continue
            }
            let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
            XCTAssertEqual(headings, Self.fixedSections, "\(page): the sections must be exactly these, in this order")
            XCTAssertTrue(text.hasPrefix("# `\(method)`"), "\(page): the title must be the method name")
        }
    }

    func testExamplesAreValidJSONAndShowTheirMethod() throws {
        for method in allMethods {
            let page = Self.pageName(for: method)
            let url = Self.protocolFolder.appendingPathComponent("methods").appendingPathComponent(page)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }  // reported above
            var messages: [JSON] = []
            for (number, line) in Self.jsonBlockLines(text) {
                do {
                    messages.append(try JSONParser.parse(line))
                } catch {
                    XCTFail("\(page):\(number): example is not valid JSON: \(error)")
                }
            }
            XCTAssertTrue(messages.contains { $0["method"]?.stringValue == method }, "\(page): no example message of \(method)")
        }
    }

    private func exampleLines(_ page: String) throws -> [String] {
        let url = Self.protocolFolder.appendingPathComponent("methods").appendingPathComponent(page)
        return Self.jsonBlockLines(try String(contentsOf: url, encoding: .utf8)).map(\.1)
    }

    func testInitializeExampleIsWhatTheWireTypesWrite() throws {
        let request = try InitializeRequest(params: Params(try JSONParser.parse(
            #"{"capabilities":{"general":{"positionEncodings":["utf-32","utf-8","utf-16"]}}}"#), method: "initialize"))
        let response = InitializeRequest.Response(
            serverName: "quarry", serverVersion: "0.1.0", protocolVersion: "0.1",
            positionEncoding: request.negotiatedPositionEncoding, methods: MessageRegistry.requestMethods,
            daemon: DaemonInfo(pid: 4242, sockets: ["/home/ada/.local/share/quarry/quarry.sock", "/run/user/1000/quarry/quarry.sock"],
                               dataDirectory: "/home/ada/.local/share/quarry"),
            backend: ["name": "embedded", "differences": []])
        let reply = JSONWriter.string(OutgoingMessage.result(response.json, id: .number(1)))
        XCTAssertTrue(try exampleLines("initialize.md").contains(reply), "initialize.md must show:\n\(reply)")
    }

    func testCancelledReplyIsWhatTheWireTypesWrite() throws {
        let reply = JSONWriter.string(OutgoingMessage.error(.cancelled, id: .number(7)))
        XCTAssertTrue(try exampleLines("cancelRequest.md").contains(reply), "cancelRequest.md must show:\n\(reply)")
    }

    /// The non-empty lines inside ```json fences, with their line numbers.
    static func jsonBlockLines(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var inside = false
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inside = !inside && line == "```json"
            } else if inside, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                lines.append((offset + 1, String(line)))
            }
        }
        return lines
    }

    func testReadmeIndexesEveryPage() throws {
        let readme = try String(contentsOf: Self.protocolFolder.appendingPathComponent("README.md"), encoding: .utf8)
        for method in allMethods {
            XCTAssertTrue(readme.contains("(methods/\(Self.pageName(for: method)))"), "README.md does not link \(method)")
        }
    }

    func testPageNameMapping() {
        XCTAssertEqual(Self.pageName(for: "search"), "search.md")
        XCTAssertEqual(Self.pageName(for: "$/cancelRequest"), "cancelRequest.md")
        XCTAssertEqual(Self.pageName(for: "session/open"), "session-open.md")
    }
}
