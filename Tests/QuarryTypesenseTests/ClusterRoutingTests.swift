import Foundation
import QuarryEngine
import QuarryJSON
@testable import QuarryTypesense
import XCTest

/// Routing without a network: a scripted transport plays three nodes.
/// 1. `/debug` finds the leader; writes go to it, reads round-robin over all nodes.
/// 2. A read that fails on a node is answered by the next; only when all fail is it `.unavailable`.
/// 3. After a write, reads go to the leader for the window.
/// 4. Writes retry through a leader change, give up at the bound naming every node's state,
///    and retry a non-idempotent write only when it certainly was not received.
/// 5. 4xx answers are thrown at once with Typesense's message; the API key is in no error text.
final class ClusterRoutingTests: XCTestCase {
    let nodes = [TypesenseNode(host: "n0", port: 1), TypesenseNode(host: "n1", port: 2), TypesenseNode(host: "n2", port: 3)]

    func cluster(_ transport: ScriptedTransport, configure: (inout ClusterOptions) -> Void = { _ in }) -> TypesenseCluster {
        var options = ClusterOptions()
        options.initialBackoff = 0.01
        options.maximumBackoff = 0.02
        configure(&options)
        return TypesenseCluster(nodes: nodes, apiKey: "secret-key", options: options, transport: transport)
    }

    func testWritesGoToTheLeaderAndReadsRoundRobin() throws {
        let transport = ScriptedTransport(leader: 1)
        let cluster = cluster(transport) { $0.readYourWritesWindow = 0 }
        let api = TypesenseAPI(cluster: cluster)
        try api.upsertAlias("a", collection: "c")
        XCTAssertEqual(transport.calls(path: "/aliases/a"), ["n1"])
        XCTAssertEqual(transport.headers.last?["X-TYPESENSE-API-KEY"], "secret-key")
        for _ in 0..<6 { _ = try api.search(collection: "c", parameters: ["q": "x"]) }
        XCTAssertEqual(transport.calls(path: "/collections/c/documents/search").sorted(), ["n0", "n0", "n1", "n1", "n2", "n2"])
    }

    func testAFailedReadIsAnsweredByTheNextNode() throws {
        let transport = ScriptedTransport(leader: 0)
        transport.setDown("n1", .refused)
        transport.setDown("n2", .status(503, #"{"message": "Not Ready or Lagging"}"#))
        let api = TypesenseAPI(cluster: cluster(transport))
        for _ in 0..<4 { XCTAssertNotNil(try api.collection("c")) }
        // Failed nodes are tried last until their cooldown has passed, so only the first rounds reach them.
        XCTAssertEqual(transport.calls(path: "/collections/c").filter { $0 != "n0" }.count, 2)

        transport.setDown("n0", .status(500, ""))
        XCTAssertThrowsError(try api.collection("c")) { error in
            guard case .unavailable(let text) = error as? TypesenseError else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("n0:1: HTTP 500"), text)
            XCTAssertTrue(text.contains("n1:2: cannot connect"), text)
            XCTAssertTrue(text.contains("n2:3: not ready"), text)
            XCTAssertFalse(text.contains("secret-key"), text)
        }
    }

    func testReadsStayOnTheLeaderForTheWindowAfterAWrite() throws {
        let transport = ScriptedTransport(leader: 2)
        let cluster = cluster(transport) { $0.readYourWritesWindow = 0.3 }
        let api = TypesenseAPI(cluster: cluster)
        try api.deleteDocument("1", collection: "c")
        for _ in 0..<5 { _ = try api.document("1", collection: "c") }
        XCTAssertEqual(transport.calls(path: "/collections/c/documents/1", method: .get), ["n2", "n2", "n2", "n2", "n2"])
        Thread.sleep(forTimeInterval: 0.35)
        for _ in 0..<3 { _ = try api.document("1", collection: "c") }
        XCTAssertEqual(Set(transport.calls(path: "/collections/c/documents/1", method: .get).suffix(3)).count, 3)
    }

    func testAReadInTheWindowWaitsItOutWhenTheLeaderIsGone() throws {
        let transport = ScriptedTransport(leader: 0)
        let cluster = cluster(transport) { $0.readYourWritesWindow = 0.3 }
        let api = TypesenseAPI(cluster: cluster)
        try api.upsertAlias("a", collection: "c")
        transport.setDown("n0", .refused)
        let start = Date()
        XCTAssertNotNil(try api.collection("c"))
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.2)
        XCTAssertNotEqual(transport.calls(path: "/collections/c").last, "n0")
    }

    func testAWriteFollowsTheNewLeader() throws {
        let transport = ScriptedTransport(leader: 0)
        let api = TypesenseAPI(cluster: cluster(transport))
        try api.upsertAlias("a", collection: "c")
        // The leader dies; for a while nobody leads and the survivors answer writes with an empty 500.
        transport.setDown("n0", .refused)
        transport.leader = nil
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { transport.leader = 2 }
        try api.upsertAlias("a", collection: "d")
        XCTAssertEqual(transport.calls(path: "/aliases/a").last, "n2")
    }

    func testAWriteGivesUpAtTheBoundNamingEveryNode() {
        let transport = ScriptedTransport(leader: nil)
        transport.setDown("n0", .refused)
        transport.raftState["n2"] = 3
        let cluster = cluster(transport) { $0.writeRetryBound = 0.2 }
        let start = Date()
        XCTAssertThrowsError(try TypesenseAPI(cluster: cluster).deleteCollection("c")) { error in
            guard case .unavailable(let text) = error as? TypesenseError else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("n0:1: unreachable (cannot connect"), text)
            XCTAssertTrue(text.contains("n1:2: follower"), text)
            XCTAssertTrue(text.contains("n2:3: not ready (candidate)"), text)
            XCTAssertEqual((error as? TypesenseError)?.engineError, .unavailable(text))
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(elapsed, 0.15)
        XCTAssertLessThan(elapsed, 1.5)
    }

    func testANonIdempotentWriteIsRetriedOnlyWhenItWasNotReceived() throws {
        let transport = ScriptedTransport(leader: 0)
        let api = TypesenseAPI(cluster: cluster(transport))
        transport.failNext("n0", .status(503, ""), times: 2)
        XCTAssertNoThrow(try api.createCollection(["name": "c"]))
        XCTAssertEqual(transport.calls(path: "/collections", method: .post).count, 3)

        transport.failNext("n0", .timedOut, times: 1)
        XCTAssertThrowsError(try api.createCollection(["name": "c"])) { error in
            guard case .unavailable(let text) = error as? TypesenseError else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("may or may not have been applied"), text)
        }
        XCTAssertEqual(transport.calls(path: "/collections", method: .post).count, 4)
    }

    func testAWriteThatFoundNoLeaderIsRetriedAndAnyOther500IsAnAnswer() throws {
        let transport = ScriptedTransport(leader: 0)
        let api = TypesenseAPI(cluster: cluster(transport))
        // Mid-election, the node forwards nothing and says so: the write was not applied, so it is sent again.
        transport.failNext("n0", .status(500, #"{"message": "Could not find a leader."}"#), times: 2)
        XCTAssertNoThrow(try api.createCollection(["name": "c"]))
        XCTAssertEqual(transport.calls(path: "/collections", method: .post).count, 3)

        transport.failNext("n0", .status(500, #"{"message": "Something else broke."}"#), times: 1)
        XCTAssertThrowsError(try api.createCollection(["name": "c"])) { error in
            XCTAssertTrue("\(error)".contains("Something else broke."), "\(error)")
        }
        XCTAssertEqual(transport.calls(path: "/collections", method: .post).count, 4, "any other message is an answer")
    }

    func testClientErrorsAreThrownAtOnceWithTypesensesMessage() {
        let transport = ScriptedTransport(leader: 0)
        transport.failNext("n0", .status(409, #"{"message": "A collection with name `c` already exists."}"#), times: 1)
        let api = TypesenseAPI(cluster: cluster(transport))
        XCTAssertThrowsError(try api.createCollection(["name": "c"])) { error in
            XCTAssertEqual(error as? TypesenseError, .http(status: 409, message: "A collection with name `c` already exists."))
        }
        XCTAssertEqual(transport.calls(path: "/collections", method: .post).count, 1)
    }

    func testHealthReportsEachNodeAndTheLeader() {
        let transport = ScriptedTransport(leader: 1)
        transport.setDown("n2", .refused)
        let health = cluster(transport).health()
        XCTAssertEqual(health["leader"], "n1:2")
        let reports = health["nodes"]?.arrayValue ?? []
        XCTAssertEqual(reports.map { $0["role"] }, ["follower", "leader", "unreachable"])
        XCTAssertEqual(reports.map { $0["reachable"] }, [true, true, false])
        XCTAssertEqual(reports.map { $0["healthy"] }, [true, true, false])
    }

    func testTheAPIKeyIsNeverPrinted() {
        let cluster = cluster(ScriptedTransport(leader: 0))
        var dumped = ""
        dump(cluster, to: &dumped)
        XCTAssertFalse(dumped.contains("secret-key"))
        XCTAssertFalse(String(describing: cluster.apiKey).contains("secret-key"))
    }

    func testNodeListsParse() {
        XCTAssertEqual(TypesenseNode.list("127.0.0.1:8108, http://h:9/,https://x:443"),
                       [TypesenseNode(host: "127.0.0.1", port: 8108), TypesenseNode(host: "h", port: 9),
                        TypesenseNode(host: "x", port: 443, scheme: "https")])
        XCTAssertNil(TypesenseNode.list("h:8108,nope"))
        XCTAssertNil(TypesenseNode.list(""))
        XCTAssertEqual(TypesenseNode("x:8108")?.baseURL, "http://x:8108")
    }
}

/// Three fake nodes: `/debug` and `/health` answer from `raftState`, every other call
/// succeeds with `{}` unless the node is down or has failures queued. Writes to a
/// non-leader while nobody leads get an empty 500, as Typesense answers during an election.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    enum Failure { case refused, timedOut, status(Int, String) }

    private let lock = NSLock()
    private var down: [String: Failure] = [:]
    private var queued: [String: [Failure]] = [:]
    private var log: [(host: String, method: HTTPMethod, path: String)] = []
    private var sentHeaders: [[String: String]] = []
    private var _leader: Int?
    private var _raftState: [String: Int] = [:]

    init(leader: Int?) { _leader = leader }

    var leader: Int? {
        get { lock.withLock { _leader } }
        set { lock.withLock { _leader = newValue } }
    }

    /// Overrides the state `/debug` reports for a host.
    var raftState: [String: Int] {
        get { lock.withLock { _raftState } }
        set { lock.withLock { _raftState = newValue } }
    }

    var headers: [[String: String]] { lock.withLock { sentHeaders } }

    func setDown(_ host: String, _ failure: Failure?) { lock.withLock { down[host] = failure } }

    func failNext(_ host: String, _ failure: Failure, times: Int) {
        lock.withLock { queued[host, default: []] += Array(repeating: failure, count: times) }
    }

    /// The hosts that got calls to `path` (query left out), in order; probes are not counted.
    func calls(path: String, method: HTTPMethod? = nil) -> [String] {
        lock.withLock { log.filter { $0.path == path && (method == nil || $0.method == method) }.map(\.host) }
    }

    func send(_ request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse {
        let host = String(request.baseURL.dropFirst("http://".count).prefix { $0 != ":" })
        let index = Int(host.dropFirst()) ?? -1
        let path = String(request.target.prefix { $0 != "?" })
        let failure: Failure? = lock.withLock {
            sentHeaders.append(request.headers)
            if path != "/debug" && path != "/health" { log.append((host, request.method, path)) }
            if let failure = down[host] { return failure }
            if var pending = queued[host], !pending.isEmpty, path != "/debug", path != "/health" {
                let failure = pending.removeFirst()
                queued[host] = pending
                return failure
            }
            return nil
        }
        switch failure {
        case .refused?: throw HTTPTransportError(.cannotConnect, "connection refused")
        case .timedOut?: throw HTTPTransportError(.timedOut, "timed out")
        case .status(let status, let body)?: return HTTPResponse(status: status, body: Array(body.utf8))
        case nil: break
        }
        let (leader, states) = lock.withLock { (_leader, _raftState) }
        switch path {
        case "/debug":
            let state = states[host] ?? (leader == index ? 1 : 4)
            return HTTPResponse(status: 200, body: Array(#"{"state":\#(state),"version":"0.24.1"}"#.utf8))
        case "/health":
            return HTTPResponse(status: 200, body: Array(#"{"ok":true}"#.utf8))
        default:
            if request.method != .get && path != "/multi_search" && leader != index {
                return HTTPResponse(status: 500, body: [])
            }
            return HTTPResponse(status: 200, body: Array("{}".utf8))
        }
    }
}
