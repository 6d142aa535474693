import Foundation
import QuarryEngine
import QuarryJSON
import QuarryTypesense
import XCTest

/// TypesenseAPI against a real single node.
/// 1. Collections, aliases, import (with a failing line), search, multi_search, export and deletes
///    round-trip, and U+E000 highlight tags pass through the query string.
/// 2. A missing collection is a 404 the caller can see (or nil / false where the call returns one).
/// 3. With one of two configured addresses dead, reads are answered by the live one.
/// 4. A write to a node that was killed is `.unavailable` after the bound, naming the node.
final class ClusterLiveTests: XCTestCase {
    nonisolated(unsafe) static var node: TypesenseTestNode?
    nonisolated(unsafe) static var startError: (any Error)?

    override class func setUp() {
        super.setUp()
        do { node = try TypesenseTestNode.start() } catch { startError = error }
    }

    override class func tearDown() {
        node?.stop()
        node = nil
        super.tearDown()
    }

    var node: TypesenseTestNode!
    var api: TypesenseAPI!

    override func setUpWithError() throws {
        if let error = Self.startError { throw error }
        node = Self.node
        api = TypesenseAPI(cluster: TypesenseCluster(nodes: [node.node], apiKey: TypesenseTestNode.apiKey))
    }

    static let schemaFields: [JSON] = [
        ["name": "s_.*", "type": "string[]", "optional": true],
        ["name": "f_.*", "type": "string[]", "facet": true, "optional": true],
        ["name": "n_.*", "type": "float[]", "optional": true],
    ]

    func makeCollection(_ name: String) throws {
        _ = try api.createCollection(["name": .string(name), "fields": .array(Self.schemaFields)])
    }

    func testCollectionsImportSearchAndExport() throws {
        try makeCollection("books_1")
        try api.upsertAlias("books", collection: "books_1")
        XCTAssertEqual(try api.alias("books"), "books_1")
        XCTAssertTrue(try api.aliases().contains { $0 == ("books", "books_1") })

        let result = try api.importDocuments([
            ["id": "1", "s_title": ["The Giver"], "f_tag": ["young adult"], "n_year": [1993]],
            ["id": "2", "s_title": ["The Giving Tree"], "f_tag": ["children"], "n_year": [1964]],
            ["id": "a/b c", "s_title": ["Gilead"], "f_tag": ["young adult", "novel"], "n_year": [2004]],
            ["id": "4", "s_title": "not an array"],
        ], collection: "books", action: .upsert)
        XCTAssertEqual(result.succeeded, 3)
        XCTAssertEqual(result.failed, 1)
        XCTAssertEqual(result.failures.first?.line, 3)
        XCTAssertEqual(result.failures.first?.code, 400)

        let found = try api.search(collection: "books", parameters: [
            "q": "giv", "query_by": "s_title", "filter_by": "f_tag:=[`young adult`] && n_year:>1990",
            "highlight_start_tag": "\u{E000}", "highlight_end_tag": "\u{E001}", "highlight_full_fields": "s_title",
        ])
        XCTAssertEqual(found["found"], 1)
        let hit = found["hits"]?.arrayValue?.first
        XCTAssertEqual(hit?["document"]?["id"], "1")
        XCTAssertEqual(hit?["highlights"]?.arrayValue?.first?["values"]?.arrayValue?.first, "The \u{E000}Giv\u{E001}er")
        // What HitHighlighter asks: the `highlight` object alone, which HighlightMarks reads.
        let modern = try api.search(collection: "books", parameters: [
            "q": "giv", "query_by": "s_title", "filter_by": "f_tag:=[`young adult`] && n_year:>1990",
            "highlight_start_tag": "\u{E000}", "highlight_end_tag": "\u{E001}", "highlight_full_fields": "s_title",
            "enable_highlight_v1": false,
        ])["hits"]?.arrayValue?.first
        XCTAssertNil(modern?["highlights"])
        XCTAssertEqual(modern?["highlight"]?["s_title"]?.arrayValue?.first?["value"], "The \u{E000}Giv\u{E001}er")

        let results = try api.multiSearch([
            ["collection": "books", "q": "the"],
            ["collection": "books", "q": "*", "filter_by": "f_tag:=[novel]"],
        ], common: ["query_by": "s_title"])
        XCTAssertEqual(results.map { $0["found"] }, [2, 1])

        let exported = try api.exportDocuments(collection: "books", filterBy: "n_year:<2000", includeFields: ["id"])
        XCTAssertEqual(Set(exported.map { $0["id"] }), ["1", "2"])
        XCTAssertEqual(exported.first?.keys.elementsEqual(["id"]), true)

        XCTAssertEqual(try api.document("a/b c", collection: "books")?["s_title"], ["Gilead"])
        XCTAssertEqual(try api.deleteDocuments(filterBy: "n_year:<1970", collection: "books"), 1)
        XCTAssertTrue(try api.deleteDocument("a/b c", collection: "books"))
        XCTAssertFalse(try api.deleteDocument("a/b c", collection: "books"))
        XCTAssertEqual(try api.collection("books")?["num_documents"], 1)

        try api.updateCollectionFields("books_1", fields: [["name": "extra", "type": "string", "optional": true]])
        XCTAssertThrowsError(
            try api.updateCollectionFields("books_1", fields: [["name": "extra", "type": "string", "optional": true]])
        ) { error in
            guard case .http(400, let message)? = error as? TypesenseError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("extra"), message)
        }
        XCTAssertTrue(try api.deleteAlias("books"))
        XCTAssertTrue(try api.deleteCollection("books_1"))
        XCTAssertFalse(try api.deleteCollection("books_1"))
    }

    func testMissingCollectionsAreVisibleToCallers() throws {
        XCTAssertNil(try api.collection("nope"))
        XCTAssertNil(try api.alias("nope"))
        XCTAssertFalse(try api.deleteAlias("nope"))
        XCTAssertThrowsError(try api.search(collection: "nope", parameters: ["q": "x", "query_by": "s_a"])) { error in
            XCTAssertEqual((error as? TypesenseError)?.isNotFound, true, "\(error)")
        }
        XCTAssertThrowsError(try api.multiSearch([["collection": "nope", "q": "x"]], common: ["query_by": "s_a"])) { error in
            XCTAssertEqual((error as? TypesenseError)?.isNotFound, true, "\(error)")
        }
        XCTAssertThrowsError(try api.importDocuments([["id": "1"]], collection: "nope", action: .upsert)) { error in
            XCTAssertEqual((error as? TypesenseError)?.isNotFound, true, "\(error)")
        }
    }

    func testReadsFailOverToTheLiveNode() throws {
        try makeCollection("failover_1")
        let dead = TypesenseNode(host: "127.0.0.1", port: try TypesenseTestNode.freePort())
        let cluster = TypesenseCluster(nodes: [dead, node.node], apiKey: TypesenseTestNode.apiKey)
        let api = TypesenseAPI(cluster: cluster)
        for _ in 0..<4 {
            XCTAssertEqual(try api.search(collection: "failover_1", parameters: ["q": "*"])["found"], 0)
        }
        let health = cluster.health()
        XCTAssertEqual(health["leader"], .string(node.address))
        XCTAssertEqual(health["nodes"]?.arrayValue?.map { $0["role"] }, ["unreachable", "leader"])
    }

    func testAWriteToAKilledNodeIsUnavailableAfterTheBound() throws {
        let victim = try TypesenseTestNode.start()
        defer { victim.stop() }
        var options = ClusterOptions()
        options.writeRetryBound = 0.5
        let cluster = TypesenseCluster(nodes: [victim.node], apiKey: TypesenseTestNode.apiKey, options: options)
        let api = TypesenseAPI(cluster: cluster)
        _ = try api.createCollection(["name": "doomed", "fields": .array(Self.schemaFields)])
        victim.kill()

        let start = Date()
        XCTAssertThrowsError(try api.importDocuments([["id": "1"]], collection: "doomed", action: .upsert)) { error in
            guard case .unavailable(let text)? = error as? TypesenseError else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("\(victim.address): unreachable"), text)
            XCTAssertFalse(text.contains(TypesenseTestNode.apiKey), text)
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(elapsed, 0.3)
        XCTAssertLessThan(elapsed, 3)
    }
}
