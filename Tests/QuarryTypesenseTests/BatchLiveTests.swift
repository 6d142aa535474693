import Foundation
import QuarryBackend
import QuarryEngine
import QuarryJSON
import QuarrySearchContract
import QuarrySync
import QuarryTypesense
import XCTest

/// One keystroke, one HTTP request (issue 30), counted at the real `URLSessionTransport` on its
/// way to a real Typesense node:
/// 1. a session's reads (a hits searcher with facets, a disjunctive group and a hierarchical menu,
///    plus a facets searcher) in fast mode go out as exactly one request, a `/multi_search`, on the
///    caller's thread, also once the catalogue is older than the second a daemon trusts it
///    (its refresh runs off the caller's thread);
/// 2. the batch's answers equal those of the same reads made one by one.
final class BatchLiveTests: XCTestCase {
    /// The real transport, recording each request's target and the thread that sent it.
    final class CountingTransport: HTTPTransport {
        let sent = Locked<[(target: String, thread: pthread_t)]>([])

        func send(_ request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse {
            sent.withLock { $0.append((request.target, pthread_self())) }
            return try URLSessionTransport.shared.send(request)
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

extension SearchAnswer {
    /// As a UTF-16 connection is sent it.
    var wireJSON: JSONObject {
        switch self {
        case .search(let response): response.json(in: .utf16).objectValue ?? [:]
        case .facetValues(let response): response.json
        }
    }
}
