import Dispatch
import Foundation
import QuarryJSON
import QuarrySession
import XCTest

/// The sharing model (protocol/README.md) with a fake engine:
/// 1. every change bumps the version and pushes `stateChanged` to every subscriber before `change` returns;
/// 2. at most one search per session is in flight; changes made during a search are searched together
///    afterwards, and the newest version always gets its results (latest wins);
/// 3. no subscriber receives a push for a version older than one it already received;
/// 4. concurrent changes from many threads all apply, once each, in one order;
/// 5. a page for a superseded version is refused; a page for the current version is searched;
/// 6. a frontend that attaches gets the newest results; a failed change changes nothing;
/// 7. the registry frees a session once nobody is attached and the grace period is over.
final class SessionSequencingTests: XCTestCase {
    let a = SubscriberID(1)
    let b = SubscriberID(2)

    func makeSession(_ backend: FakeBackend, _ outlet: RecordingOutlet) -> Session {
        let session = Session(name: "s", environment: SessionEnvironment(
            backend: backend, outlet: outlet, runSearch: { _, job in DispatchQueue.global().async(execute: job) }))
        session.attach(a)
        session.attach(b)
        return session
    }

    /// Waits (without asserting on time) until `condition` holds.
    func eventually(_ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<2000 where !condition() { usleep(5000) }
        XCTAssertTrue(condition(), "condition never held", file: file, line: line)
    }

    func assertMonotonic(_ pushes: [RecordingOutlet.Received], file: StaticString = #filePath, line: UInt = #line) {
        var newest = 0
        for push in pushes {
            XCTAssertGreaterThanOrEqual(push.version, newest, "\(push.method) for an older version", file: file, line: line)
            newest = max(newest, push.version)
        }
    }

    func testStateChangedIsPushedBeforeTheChangeReturns() throws {
        let backend = FakeBackend(response: ["hits": []])
        let outlet = RecordingOutlet()
        let session = makeSession(backend, outlet)
        let (_, snapshot) = try session.change { state, _ in state.query = "m" }
        XCTAssertEqual(snapshot.version, 1)
        for subscriber in [a, b] {
            XCTAssertEqual(outlet.pushes(to: subscriber).first, .init(method: "stateChanged", version: 1, query: "m"))
        }
        XCTAssertEqual(try session.change { state, _ in state.query = "mu" }.snapshot.version, 2)
    }

    func testLatestWinsWithOneSearchInFlight() throws {
        let backend = FakeBackend(response: ["hits": []], gated: true)
        let outlet = RecordingOutlet()
        let session = makeSession(backend, outlet)
        _ = try session.change { state, _ in state.addSearcher(.hits(HitsSearcher(index: "i"))) }
        eventually { backend.calls == 1 }  // the first search is held
        let words = ["m", "mu", "mus", "musi", "music"]
        for word in words { _ = try session.change { state, _ in state.query = word } }
        backend.open()
        eventually { outlet.pushes(to: self.a).last == .init(method: "resultsUpdated", version: 6, query: "music") }
        XCTAssertEqual(backend.maxInFlight, 1)
        XCTAssertEqual(backend.queries, ["", "music"], "the intermediate versions were never searched")
        for subscriber in [a, b] {
            let pushes = outlet.pushes(to: subscriber)
            assertMonotonic(pushes)
            XCTAssertEqual(pushes.filter { $0.method == "stateChanged" }.map(\.version), [1, 2, 3, 4, 5, 6])
            XCTAssertEqual(pushes.filter { $0.method == "resultsUpdated" }.map(\.version), [6],
                           "results for version 1 came after version 2 was announced, so they were not sent")
        }
    }

    func testConcurrentChangesAllApplyInOneOrder() throws {
        let backend = FakeBackend(response: ["hits": []])
        let outlet = RecordingOutlet()
        let session = makeSession(backend, outlet)
        _ = try session.change { state, _ in state.addSearcher(.hits(HitsSearcher(index: "i"))) }
        let threads = 8, perThread = 40
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for step in 0..<perThread {
                _ = try? session.change { state, _ in state.query = "t\(thread)-\(step)" }
            }
        }
        let final = session.snapshot()
        XCTAssertEqual(final.version, 1 + threads * perThread)
        eventually { outlet.pushes(to: self.b).last?.method == "resultsUpdated" && outlet.pushes(to: self.b).last?.version == final.version }
        XCTAssertEqual(outlet.pushes(to: b).last?.query, final.state.query)
        XCTAssertEqual(backend.maxInFlight, 1)
        for subscriber in [a, b] {
            let states = outlet.pushes(to: subscriber).filter { $0.method == "stateChanged" }.map(\.version)
            XCTAssertEqual(states, Array(1...final.version), "every version announced once, in order")
            assertMonotonic(outlet.pushes(to: subscriber))
        }
    }

    func testPagesOfSupersededVersionsAreRefused() throws {
        let backend = FakeBackend(response: ["hits": [], "page": 2])
        let session = makeSession(backend, RecordingOutlet())
        let id = try session.change { state, _ in state.addSearcher(.hits(HitsSearcher(index: "i"))) }.value
        _ = try session.change { state, _ in state.query = "x" }
        XCTAssertThrowsError(try session.pagePlan(searcher: id, page: 2, version: 1)) { error in
            XCTAssertEqual(error as? SessionError, .superseded(requested: 1, current: 2))
        }
        XCTAssertThrowsError(try session.pagePlan(searcher: id, page: 2, version: 9))
        let plan = try session.pagePlan(searcher: id, page: 2, version: 2)
        guard case .hits(_, let query) = plan.requests.first?.request else { return XCTFail("hits expected") }
        XCTAssertEqual(query.page, 2)
        XCTAssertEqual(query.query, "x")
    }

    func testAFailedChangeChangesNothing() throws {
        let outlet = RecordingOutlet()
        let session = makeSession(FakeBackend(response: [:]), outlet)
        XCTAssertThrowsError(try session.change { state, _ throws(SessionError) in
            state.query = "lost"
            try state.removeSearcher("s9")
        })
        XCTAssertEqual(session.snapshot().version, 0)
        XCTAssertEqual(session.snapshot().state.query, "")
        XCTAssertTrue(outlet.pushes(to: a).isEmpty)
    }

    func testALateSubscriberGetsTheNewestResults() throws {
        let outlet = RecordingOutlet()
        let session = makeSession(FakeBackend(response: ["hits": []]), outlet)
        _ = try session.change { state, _ in state.addSearcher(.hits(HitsSearcher(index: "i"))); state.query = "q" }
        eventually { outlet.pushes(to: self.a).contains { $0.method == "resultsUpdated" } }
        let late = SubscriberID(3)
        XCTAssertEqual(session.attach(late).version, 1)
        session.sendLatestResults(to: late)
        eventually { outlet.pushes(to: late) == [.init(method: "resultsUpdated", version: 1, query: "q")] }
        session.attach(late)
        session.sendLatestResults(to: late)  // attaching again does not repeat them
        _ = try session.change { state, _ in state.query = "r" }
        eventually { outlet.pushes(to: late).last?.version == 2 && outlet.pushes(to: late).last?.method == "resultsUpdated" }
        XCTAssertEqual(outlet.pushes(to: late).map(\.version), [1, 2, 2])
        XCTAssertEqual(session.detach(late), 2)
    }

    func testRegistryFreesAnUnattachedSessionAfterTheGracePeriod() throws {
        let registry = SessionRegistry(environment: SessionEnvironment(
            backend: FakeBackend(response: [:]), outlet: RecordingOutlet(), runSearch: { _, job in DispatchQueue.global().async(execute: job) }),
            gracePeriod: 0)
        let (session, created) = registry.open("s", for: a)
        XCTAssertTrue(created)
        XCTAssertFalse(registry.open("s", for: b).created)
        XCTAssertEqual(session.subscriberCount, 2)
        XCTAssertTrue(try registry.close("s", for: a))
        XCTAssertFalse(try registry.close("s", for: a), "closing twice detaches once")
        XCTAssertNoThrow(try registry.session("s"), "b is still attached")
        registry.detachAll(b)
        eventually { (try? registry.session("s")) == nil }
        XCTAssertThrowsError(try registry.close("s", for: a))
        let unnamed = registry.open(nil, for: a).session
        XCTAssertTrue(unnamed.name.hasPrefix("session-"))
    }
}
