import Foundation
import QuarryBackend
import QuarryEngine
import QuarryJSON
import XCTest

/// Two real engines stand for the two sides: what matters here is which side each call reaches.
final class RoutedBackendTests: XCTestCase {
    private var directories: [URL] = []

    override func tearDown() {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    private func engine() throws -> Engine {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routed-\(UUID().uuidString)")
        directories.append(directory)
        return try Engine(directory: directory.path, log: { _ in })
    }

    func testNamedIndicesAndTheirReplicasGoToTheRemoteSide() throws {
        let local = try engine(), remote = try engine()
        let routed = RoutedBackend(local: local, remote: remote, selection: .named(["products"]))
        _ = try routed.saveObjects([["objectID": "1", "name": "lamp"]], index: "products")
        _ = try routed.saveObjects([["objectID": "2", "name": "note"]], index: "notes")
        _ = try routed.setSettings(["replicas": ["virtual(products_price)"], "customRanking": ["desc(name)"]], index: "products")

        XCTAssertEqual(try remote.getObjects(["1"], index: "products").first??["name"], "lamp")
        XCTAssertThrowsError(try local.getObjects(["1"], index: "products"))
        XCTAssertEqual(try local.getObjects(["2"], index: "notes").first??["name"], "note")
        XCTAssertTrue(routed.backend(for: "products_price") as? Engine === remote)
        XCTAssertEqual(try routed.listIndices(memory: false).map(\.name), ["notes", "products", "products_price"])
        XCTAssertEqual(routed.description.name, "routed")
    }

    func testAllSendsEveryIndexToTheRemoteSide() throws {
        let local = try engine(), remote = try engine()
        let routed = RoutedBackend(local: local, remote: remote, selection: .all)
        _ = try routed.saveObjects([["objectID": "1"]], index: "anything")
        XCTAssertEqual(remote.listIndices().map(\.name), ["anything"])
        XCTAssertEqual(local.listIndices().map(\.name), [])
        XCTAssertEqual(routed.description.name, "embedded")  // the remote side's own description
    }
}
