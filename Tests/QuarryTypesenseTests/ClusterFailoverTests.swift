import Foundation
import QuarryJSON
import QuarryTypesense
import XCTest

/// A three-node raft cluster (about 12 s to elect, so one cluster for the class).
/// 1. Right after each write through the client, a read sees it, though followers lag ~500 ms.
/// 2. After SIGKILL of the leader, a write returns once a new leader is elected (7-10.5 s),
///    well inside the 25 s bound, and reads through the client never fail meanwhile.
/// 3. The killed node, restarted, serves the write it missed.
final class ClusterFailoverTests: XCTestCase {
    nonisolated(unsafe) static var nodes: [TypesenseTestNode] = []
    nonisolated(unsafe) static var startError: (any Error)?

    override class func setUp() {
        super.setUp()
        do { nodes = try TypesenseTestNode.startCluster(size: 3) } catch { startError = error }
    }

    override class func tearDown() {
        for node in nodes { node.stop() }
        nodes = []
        super.tearDown()
    }

    var nodes: [TypesenseTestNode] = []
    var cluster: TypesenseCluster!
    var api: TypesenseAPI!

    override func setUpWithError() throws {
        if let error = Self.startError { throw error }
        nodes = Self.nodes
        cluster = TypesenseCluster(nodes: nodes.map(\.node), apiKey: TypesenseTestNode.apiKey)
        api = TypesenseAPI(cluster: cluster)
    }

    func makeCollection(_ name: String) throws {
        _ = try api.createCollection(["name": .string(name), "fields": [["name": "s_.*", "type": "string[]", "optional": true]]])
    }

    func testReadsSeeTheClientsOwnWrites() throws {
        try makeCollection("ryw")
        for i in 0..<20 {
            let result = try api.importDocuments([["id": .string("d\(i)"), "s_t": [.string("word\(i)")]]], collection: "ryw", action: .upsert)
            XCTAssertEqual(result.succeeded, 1)
            let found = try api.search(collection: "ryw", parameters: ["q": .string("word\(i)"), "query_by": "s_t"])
            XCTAssertEqual(found["found"], 1, "write \(i) not visible")
        }
    }

    func testWritesSurviveTheLossOfTheLeader() throws {
        try makeCollection("failover")
        _ = try api.importDocuments([["id": "before", "s_t": ["alpha"]]], collection: "failover", action: .upsert)
        Thread.sleep(forTimeInterval: 1)  // every follower has the collection and the document

        guard let leader = nodes.first(where: { $0.raftState() == 1 }) else { return XCTFail("no leader") }
        let reader = Reader(api: api)
        reader.start()
        leader.kill()

        let start = Date()
        let result = try api.importDocuments([["id": "after", "s_t": ["beta"]]], collection: "failover", action: .upsert)
        let elapsed = Date().timeIntervalSince(start)
        print("write after killing the leader returned in \(elapsed) s")
        XCTAssertEqual(result.succeeded, 1)
        XCTAssertLessThan(elapsed, 25)
        XCTAssertEqual(try api.document("after", collection: "failover")?["s_t"], ["beta"])
        let (reads, failures) = reader.stop()
        XCTAssertGreaterThan(reads, 10)
        XCTAssertEqual(failures, [], "reads failed during the failover")
        XCTAssertNotEqual(cluster.knownLeader, leader.node)

        try leader.restart()
        let alone = TypesenseAPI(cluster: TypesenseCluster(nodes: [leader.node], apiKey: TypesenseTestNode.apiKey))
        let deadline = Date().addingTimeInterval(15)
        while (try? alone.document("after", collection: "failover")) == nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertNotNil(try alone.document("after", collection: "failover"), "the restarted node did not catch up")
    }

    /// Searches in a loop on its own thread, counting failures.
    final class Reader: @unchecked Sendable {
        let api: TypesenseAPI
        private let lock = NSLock()
        private var running = true
        private var reads = 0
        private var failures: [String] = []
        private let done = DispatchSemaphore(value: 0)

        init(api: TypesenseAPI) { self.api = api }

        func start() {
            Thread.detachNewThread { [self] in
                while lock.withLock({ running }) {
                    do {
                        _ = try api.search(collection: "failover", parameters: ["q": "alpha", "query_by": "s_t"])
                        lock.withLock { reads += 1 }
                    } catch {
                        lock.withLock { failures.append("\(error)") }
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                done.signal()
            }
        }

        func stop() -> (reads: Int, failures: [String]) {
            lock.withLock { running = false }
            done.wait()
            return lock.withLock { (reads, failures) }
        }
    }
}
