import QuarryJSON
import XCTest
@testable import QuarryRelay

/// What a relay replays to a new daemon and what it owes its frontend when one goes away:
/// 1. The replay is the handshake, then the sessions still open, in the order last opened, each under an
///    id of the relay's own whose reply the frontend never sees.
/// 2. A request owed by a daemon that went away is owed once: `orphans` hands it over and forgets it.
/// 3. A message that never reached a daemon leaves no trace (`forget`), so it is sent again, not replayed twice.
/// 4. Batches count element by element; `exit` and `stopServer` mean the end, `shutdown` a clean one.
final class RelayLedgerTests: XCTestCase {
    private func request(_ id: JSON?, _ method: String, _ params: JSONObject = [:]) -> JSON {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method), "params": .object(params)]
        if let id { message["id"] = id }
        return .object(message)
    }

    private func openSession(_ id: Int, _ name: String) -> JSON {
        request(JSON(id), "openSession", ["session": .string(name)])
    }

    func testReplayIsTheHandshakeThenTheOpenSessionsUnderTheRelaysOwnIds() throws {
        var ledger = RelayLedger()
        ledger.recordOutgoing(request(1, "initialize", ["positionEncoding": "utf-16"]), generation: 0)
        ledger.recordOutgoing(request(nil, "initialized"), generation: 0)
        ledger.recordOutgoing(openSession(2, "a"), generation: 0)
        ledger.recordOutgoing(openSession(3, "b"), generation: 0)
        ledger.recordOutgoing(request(4, "closeSession", ["session": "a"]), generation: 0)
        ledger.recordOutgoing(openSession(5, "c"), generation: 0)
        ledger.recordOutgoing(openSession(6, "b"), generation: 0)  // attached again: replayed last

        let replay = ledger.replay()
        XCTAssertEqual(replay.map { $0["method"]?.stringValue }, ["initialize", "initialized", "openSession", "openSession"])
        XCTAssertEqual(replay.compactMap { $0["params"]?["session"]?.stringValue }, ["c", "b"])
        XCTAssertEqual(replay[0]["params"]?["positionEncoding"], "utf-16", "the frontend's own handshake, as it sent it")
        XCTAssertNil(replay[1]["id"], "initialized stays a notification")
        let ownIDs = replay.compactMap { $0["id"] }
        XCTAssertEqual(ownIDs.count, 3)
        XCTAssertEqual(Set(ownIDs.map(JSONWriter.string)).count, 3, "each replayed request has an id of its own")
        for id in ownIDs {
            XCTAssertTrue(id.stringValue?.hasPrefix("quarry-relay-") ?? false)
            XCTAssertFalse(ledger.recordReply(id: JSONWriter.string(id)), "the reply to a replayed request is the relay's")
        }
        XCTAssertTrue(ledger.recordReply(id: "1"), "a reply to the frontend's own request is shown")

        let again = ledger.replay()
        XCTAssertTrue(Set(again.compactMap { $0["id"] }.map(JSONWriter.string)).isDisjoint(with: Set(ownIDs.map(JSONWriter.string))),
                      "a second failover replays under new ids")
    }

    func testRequestsOwedByAGoneDaemonAreOrphanedOnce() {
        var ledger = RelayLedger()
        ledger.recordOutgoing(request(1, "search"), generation: 0)
        ledger.recordOutgoing(request("two", "importFile"), generation: 0)
        ledger.recordOutgoing(request(3, "search"), generation: 1)
        XCTAssertTrue(ledger.recordReply(id: "1"))

        XCTAssertEqual(ledger.orphans(upTo: 0).map(JSONWriter.string), [#""two""#], "answered requests and newer links' are not owed")
        XCTAssertEqual(ledger.orphans(upTo: 0), [], "owed once")
        XCTAssertEqual(ledger.orphans(upTo: Int.max).map(JSONWriter.string), ["3"])
    }

    func testForgettingAnUndeliveredMessageLeavesNoTrace() {
        var ledger = RelayLedger()
        let initialize = request(1, "initialize")
        let session = openSession(2, "s")
        ledger.recordOutgoing(initialize, generation: 0)
        ledger.recordOutgoing(session, generation: 0)
        ledger.forget(session)
        ledger.forget(initialize)
        XCTAssertEqual(ledger.replay(), [], "nothing to replay")
        XCTAssertEqual(ledger.orphans(upTo: Int.max), [], "nothing owed")
    }

    func testBatchesCountElementByElementAndTheEndIsNoted() {
        var ledger = RelayLedger()
        ledger.recordOutgoing(.array([openSession(1, "s"), request(2, "search"), request(nil, "initialized")]), generation: 0)
        XCTAssertTrue(ledger.initialized)
        XCTAssertEqual(ledger.sessions.map(\.name), ["s"])
        XCTAssertEqual(Set(ledger.orphans(upTo: 0).map(JSONWriter.string)), ["1", "2"])

        XCTAssertFalse(ledger.ending)
        ledger.recordOutgoing(request(3, "shutdown"), generation: 0)
        XCTAssertTrue(ledger.shutdownSent)
        XCTAssertFalse(ledger.ending)
        ledger.recordOutgoing(request(nil, "exit"), generation: 0)
        XCTAssertTrue(ledger.ending)
    }

    func testAnOrphanedRequestIsAnsweredWithARetryableError() {
        let reply = SpawnerRelay.orphaned(JSON(7))
        XCTAssertEqual(reply["id"], JSON(7))
        XCTAssertEqual(reply["error"]?["code"], JSON(-32803))
        XCTAssertEqual(reply["error"]?["data"]?["retry"], .bool(true))
    }
}
