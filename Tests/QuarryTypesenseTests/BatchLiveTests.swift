import Foundation
import QuarryBackend
import QuarryEngine
import QuarryJSON
import QuarrySearchContract
import QuarrySync
import QuarryTypesense
import XCTest

/// One keystroke, one HTTP request (issue 30), counted at the real `SocketTransport` on its
/// way to a real Typesense node:
/// 1. a session's reads (a hits searcher with facets, a disjunctive group and a hierarchical menu,
///    plus a facets searcher) in fast mode go out as exactly one request, a `/multi_search`, on the
///    caller's thread, also once the catalogue is older than the second a daemon trusts it
///    (its refresh runs off the caller's thread);
/// 2. the batch's answers equal those of the same reads made one by one;
/// 3. a facets searcher's counts, kept between keystrokes (`CountCache`), follow this daemon's
///    writes at once and another daemon's within the refresh that follows its second of trust.
final class BatchLiveTests: XCTestCase {
    /// The real transport, recording each request's target and the thread that sent it.
    final class CountingTransport: HTTPTransport {
        let sent = Locked<[(target: String, thread: pthread_t)]>([])

        func send(_ request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse {
            sent.withLock { $0.append((request.target, pthread_self())) }
            return try SocketTransport.shared.send(request)
        }

        /// The targets this thread sent since `mark`.
        func mine(since mark: Int) -> [String] {
            let me = pthread_self()
            return sent.withLock { Array($0[mark...]) }.filter { pthread_equal($0.thread, me) != 0 }.map(\.target)
        }

        var count: Int { sent.withLock { $0.count } }
    }

    func testAKeystrokeIsOneMultiSearch() throws {
        let node = try TypesenseTestNode.start()
        defer { node.stop() }
        let transport = CountingTransport()
        let backend = TypesenseBackend(configuration: TypesenseConfiguration(nodes: [node.address], apiKey: TypesenseTestNode.apiKey),
                                       transport: transport, log: { _ in })
        let colors = ["red", "blue", "green"], kinds = ["Books", "Music"]
        let records: [JSONObject] = (0..<120).map { i in
            ["objectID": .string(String(i)), "title": .string("c\(i % 37)word item \(i)"), "color": .string(colors[i % 3]),
             "category": ["lvl0": .string(kinds[i % 2]), "lvl1": .string("\(kinds[i % 2]) > shelf \(i % 4)")]]
        }
        _ = try backend.setSettings(["searchableAttributes": ["title"],
                                     "attributesForFaceting": ["color", "searchable(category.lvl0)", "category.lvl1"]], index: "things")
        _ = try backend.saveObjects(records, index: "things")

        let reads: [BatchRead] = [
            .search(index: "things", query: try SearchQuery(json: [
                "query": "c", "hitsPerPage": 5, "facets": ["color", "category.lvl0", "category.lvl1"], "counts": "fast",
                "disjunctiveFilters": ["color": "color:red OR color:blue"],
                "hierarchicalFacets": [["attributes": ["category.lvl0", "category.lvl1"], "separator": " > ", "path": "Books"]]])),
            .facetValues(index: "things", query: try FacetValueQuery(attribute: "category.lvl0", json: ["facetQuery": "boo"])),
        ]
        let warm = backend.searchBatch(reads)
        XCTAssertEqual(warm.count, 2)
        Thread.sleep(forTimeInterval: 1.2)  // past the catalogue's second of trust
        for _ in 0..<3 {
            let mark = transport.count
            let batch = backend.searchBatch(reads)
            XCTAssertEqual(transport.mine(since: mark), ["/multi_search"])
            let each = backend.searchEach(reads)
            for (together, alone) in zip(batch, each) {
                var a = try together.get().wireJSON, b = try alone.get().wireJSON
                a["processingTimeMS"] = nil
                b["processingTimeMS"] = nil
                XCTAssertEqual(JSON.object(a), JSON.object(b))
            }
            XCTAssertEqual(try batch[0].get().wireJSON["exhaustive"]?["nbHits"], false)
            XCTAssertNotNil(try batch[1].get().wireJSON["facetHits"]?.arrayValue?.first)
        }
    }
}

extension BatchLiveTests {
    func testKeptCountsFollowWrites() throws {
        let node = try TypesenseTestNode.start()
        defer { node.stop() }
        let configuration = TypesenseConfiguration(nodes: [node.address], apiKey: TypesenseTestNode.apiKey)
        let transport = CountingTransport()
        let backend = TypesenseBackend(configuration: configuration, transport: transport, log: { _ in })
        let other = TypesenseBackend(configuration: configuration, log: { _ in })  // another daemon on the same cluster
        _ = try backend.setSettings(["searchableAttributes": ["title"], "attributesForFaceting": ["searchable(brand)", "color"]],
                                    index: "shop")
        _ = try backend.saveObjects((0..<30).map { i in
            ["objectID": .string(String(i)), "title": "lamp", "brand": .string(["Sony", "Sonos"][i % 2]), "color": "red"]
        }, index: "shop")
        let reads: [BatchRead] = [
            .search(index: "shop", query: try SearchQuery(json: ["query": "la", "hitsPerPage": 2, "counts": "fast"])),
            .facetValues(index: "shop", query: try FacetValueQuery(attribute: "brand", json: ["facetQuery": "so", "filters": "color:red"])),
        ]
        func brands() throws -> [String] {
            guard case .facetValues(let response) = try backend.searchBatch(reads)[1].get() else { return [] }
            return response.facetHits.map { "\($0.value)=\($0.count)" }
        }
        XCTAssertEqual(try brands(), ["Sonos=15", "Sony=15"])
        let mark = transport.count
        XCTAssertEqual(try brands(), ["Sonos=15", "Sony=15"])
        XCTAssertEqual(transport.sent.withLock { $0[mark...].count }, 1, "one multi_search, for the hits only")

        _ = try backend.saveObjects([["objectID": "new", "title": "lamp", "brand": "Sonic", "color": "red"]], index: "shop")
        XCTAssertEqual(try brands(), ["Sonos=15", "Sony=15", "Sonic=1"], "this daemon's write, at once")

        _ = try other.deleteObjects(["new"], index: "shop")
        var seen = try brands()
        let deadline = Date().addingTimeInterval(10)
        while seen.contains("Sonic=1") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            seen = try brands()
        }
        XCTAssertEqual(seen, ["Sonos=15", "Sony=15"], "another daemon's write, after a refresh")
    }
}

extension SearchAnswer {
    /// As a UTF-16 connection is sent it.
    var wireJSON: JSONObject {
        switch self {
        case .search(let response): response.json(in: .utf16).objectValue ?? [:]
        case .facetValues(let response): response.json
        }
    }
}
