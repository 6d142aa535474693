import Foundation
import QuarryJSON
import QuarrySearchContract
import QuarrySync
@testable import QuarryTypesense
import XCTest

/// Count-only searches without text are kept between keystrokes:
/// 1. a batch sends only the searches not kept, and answers all of them in order;
/// 2. a search with text, or with hits, is never kept;
/// 3. a write through the daemon drops every kept answer;
/// 4. past `maxAge` a kept answer still answers while one refresh runs off the caller's thread;
///    past `staleLimit` it is asked again on the caller's thread.
final class CountCacheTests: XCTestCase {
    let counting: JSONObject = ["collection": "c", "q": "*", "per_page": 0, "facet_by": "f_brand", "filter_by": "f_color:=`red`"]
    let hits: JSONObject = ["collection": "c", "q": "so", "per_page": 20, "facet_by": "f_brand"]

    /// Answers each search with its position in all searches sent so far, and records what it was sent.
    final class Node: Sendable {
        let sent = Locked<[[JSONObject]]>([])
        var send: CountCache.Send {
            { searches throws(BackendError) in
                self.sent.withLock { sent in
                    let before = sent.joined().count
                    sent.append(searches)
                    return searches.indices.map { ["found": JSON(before + $0), "q": searches[$0]["q"] ?? .null] }
                }
            }
        }
    }

    func testOnlyTheSearchesNotKeptAreSentAndAllAreAnsweredInOrder() throws {
        let (cache, node) = (CountCache(), Node())
        let first = try cache.multiSearch([hits, counting], writes: { 0 }, send: node.send)
        XCTAssertEqual(first.map { $0["found"] }, [0, 1])
        let second = try cache.multiSearch([hits, counting], writes: { 0 }, send: node.send)
        XCTAssertEqual(second.map { $0["found"] }, [2, 1], "the count kept from the first batch")
        XCTAssertEqual(node.sent.withLock { $0.map(\.count) }, [2, 1])
        _ = try cache.multiSearch([counting], writes: { 0 }, send: node.send)
        XCTAssertEqual(node.sent.withLock { $0.count }, 2, "nothing to send")
    }

    func testSearchesWithTextOrHitsAreNeverKept() throws {
        let (cache, node) = (CountCache(), Node())
        var withText = counting
        withText["q"] = "so"
        var withHits = counting
        withHits["per_page"] = 1
        for _ in 0..<2 { _ = try cache.multiSearch([withText, withHits], writes: { 0 }, send: node.send) }
        XCTAssertEqual(node.sent.withLock { $0.map(\.count) }, [2, 2])
    }

    func testAWriteDropsWhatWasKept() throws {
        let (cache, node) = (CountCache(), Node())
        let writes = Locked(0)
        let now: @Sendable () -> Int = { writes.withLock { $0 } }
        _ = try cache.multiSearch([counting], writes: now, send: node.send)
        writes.withLock { $0 += 1 }
        let after = try cache.multiSearch([counting], writes: now, send: node.send)
        XCTAssertEqual(after.first?["found"], 1, "asked again after the write")
        _ = try cache.multiSearch([counting], writes: now, send: node.send)
        XCTAssertEqual(node.sent.withLock { $0.count }, 2)
    }

    func testAnOldAnswerIsRefreshedOffTheCallersThreadAndATooOldOneOnIt() throws {
        let node = Node()
        let refreshing = CountCache(maxAge: .zero, staleLimit: .seconds(60))
        _ = try refreshing.multiSearch([counting], writes: { 0 }, send: node.send)
        let served = try refreshing.multiSearch([counting], writes: { 0 }, send: node.send)
        XCTAssertEqual(served.first?["found"], 0, "the kept answer, at once")
        var refreshed = served
        let deadline = Date().addingTimeInterval(5)
        while refreshed.first?["found"] == 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            refreshed = try refreshing.multiSearch([counting], writes: { 0 }, send: node.send)
        }
        XCTAssertEqual(refreshed.first?["found"], 1, "the answer of the refresh the stale one started")
        XCTAssertEqual(node.sent.withLock { $0.first?.count }, 1)

        let expiring = CountCache(maxAge: .zero, staleLimit: .zero)
        let other = Node()
        _ = try expiring.multiSearch([counting], writes: { 0 }, send: other.send)
        XCTAssertEqual(try expiring.multiSearch([counting], writes: { 0 }, send: other.send).first?["found"], 1)
    }
}
