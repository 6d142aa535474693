import Foundation
import QuarryEngine
import QuarryJSON
import QuarryServer
import QuarryTransport
import XCTest

/// Sessions through the server, in-process with a recording sink and a real engine:
/// 1. a change's `stateChanged` reaches the connection that made it before its reply, and every other
///    attached connection too; `resultsUpdated` for that version follows on both;
/// 2. an attaching connection gets the newest results after its reply;
/// 3. a closed connection is detached; the session stays for the others.
final class ServerSessionTests: ServerTestCase {
    private let a = ConnectionID(rawValue: 1)
    private let b = ConnectionID(rawValue: 2)

    override func setUpWithError() throws {
        try super.setUpWithError()
        for id in [a, b] {
            server.connectionOpened(id, kind: .socket)
            send(#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#, on: id)
            _ = reply(0, on: id)
        }
        send(#"{"jsonrpc":"2.0","id":1,"method":"saveObjects","params":{"index":"songs","objects":[{"objectID":"1","title":"muse"},{"objectID":"2","title":"music box"},{"objectID":"3","title":"river"}]}}"#, on: a)
        XCTAssertNotNil(reply(1, on: a)?["result"])
    }

    private func send(_ text: String, on id: ConnectionID) {
        server.received(Array(text.utf8), on: id)
    }

    /// Polls (bounded, no timing asserted) until `condition` holds for what `id` received.
    private func received(on id: ConnectionID, until condition: ([JSON]) -> Bool) -> [JSON] {
        for _ in 0..<2000 where !condition(sink.snapshot(for: id)) { usleep(2000) }
        return sink.snapshot(for: id)
    }

    private func reply(_ requestID: Int64, on id: ConnectionID) -> JSON? {
        received(on: id) { $0.contains { $0["id"] == .int(requestID) } }.first { $0["id"] == .int(requestID) }
    }

    private func index(of requestID: Int64, in messages: [JSON]) -> Int? {
        messages.firstIndex { $0["id"] == .int(requestID) }
    }

    private func results(_ version: Int64) -> ([JSON]) -> Bool {
        { $0.contains { $0["method"] == "resultsUpdated" && $0["params"]?["stateVersion"] == .int(version) } }
    }

    func testChangesReachEveryAttachedConnectionStateFirst() throws {
        send(#"{"jsonrpc":"2.0","id":2,"method":"openSession","params":{"session":"s","searchers":[{"type":"hits","index":"songs"}]}}"#, on: a)
        XCTAssertEqual(reply(2, on: a)?["result"]?["stateVersion"], 1)
        send(#"{"jsonrpc":"2.0","id":3,"method":"openSession","params":{"session":"s"}}"#, on: b)
        XCTAssertEqual(reply(3, on: b)?["result"]?["created"], false)
        let attached = received(on: b, until: results(1))
        XCTAssertLessThan(index(of: 3, in: attached) ?? .max, attached.firstIndex { $0["method"] == "resultsUpdated" } ?? -1,
                          "the newest results follow the attach reply")

        send(#"{"jsonrpc":"2.0","id":4,"method":"setQuery","params":{"session":"s","query":"mus"}}"#, on: b)
        let onB = received(on: b, until: results(2))
        let state = try XCTUnwrap(onB.firstIndex { $0["method"] == "stateChanged" && $0["params"]?["stateVersion"] == 2 })
        XCTAssertLessThan(state, try XCTUnwrap(index(of: 4, in: onB)), "stateChanged before the reply")
        XCTAssertEqual(onB[state]["params"]?["state"]?["query"], "mus")
        let onA = received(on: a, until: results(2))
        let results = try XCTUnwrap(onA.last { $0["method"] == "resultsUpdated" })
        XCTAssertEqual(results["params"]?["results"]?.arrayValue?.first?["nbHits"], 2)
        XCTAssertTrue(onA.contains { $0["method"] == "stateChanged" && $0["params"]?["stateVersion"] == 2 })
    }

    func testClosingAConnectionDetachesIt() {
        send(#"{"jsonrpc":"2.0","id":2,"method":"openSession","params":{"session":"s"}}"#, on: a)
        send(#"{"jsonrpc":"2.0","id":3,"method":"openSession","params":{"session":"s"}}"#, on: b)
        _ = reply(2, on: a)
        _ = reply(3, on: b)
        server.connectionClosed(a)
        var attached: JSON?
        for request in Int64(10)..<Int64(500) {
            send(#"{"jsonrpc":"2.0","id":\#(request),"method":"listSessions"}"#, on: b)
            attached = reply(request, on: b)?["result"]?["sessions"]?.arrayValue?.first?["attached"]
            if attached == 1 { break }
            usleep(2000)
        }
        XCTAssertEqual(attached, 1)
    }
}
