import Dispatch
import Foundation
import QuarryJSON
import QuarrySession
import XCTest

/// Estimates first, exact counts after (protocol/methods/resultsUpdated.md):
/// 1. a first answer with estimates is followed by the exact one, of the same version, flagged exhaustive;
/// 2. an exact first answer (the embedded engine's, always) gets no second push and no second search;
/// 3. a completion whose version was superseded is never delivered, so it cannot follow a newer
///    version's first answer, and the newest version still gets its own;
/// 4. a completion starts `completionDelay` after its estimate, and not at all when a newer version
///    starts within it.
final class SessionCompletionTests: XCTestCase {
    let a = SubscriberID(1)

    func makeSession(_ backend: FakeBackend, _ outlet: RecordingOutlet,
                     completionDelay: DispatchTimeInterval = .milliseconds(5)) -> Session {
        let session = Session(name: "s", environment: SessionEnvironment(
            backend: backend, outlet: outlet, runSearch: { _, job in DispatchQueue.global().async(execute: job) },
            completionDelay: completionDelay))
        session.attach(a)
        return session
    }

    func eventually(_ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<2000 where !condition() { usleep(5000) }
        XCTAssertTrue(condition(), "condition never held", file: file, line: line)
    }

    func results(_ outlet: RecordingOutlet) -> [RecordingOutlet.Received] {
        outlet.pushes(to: a).filter { $0.method == "resultsUpdated" }
    }

    func testAnEstimateIsFollowedByTheExactCountsOfTheSameVersion() throws {
        let backend = FakeBackend(response: ["hits": [], "nbHits": 3], estimates: true)
        let outlet = RecordingOutlet()
        let session = makeSession(backend, outlet)
        _ = try session.change { state, _ in
            _ = state.addSearcher(.hits(HitsSearcher(index: "i")))
            state.query = "a"
        }
        eventually { self.results(outlet).count == 2 }
        let pushed = results(outlet)
        XCTAssertEqual(pushed.map(\.version), [1, 1])
        XCTAssertEqual(pushed.map(\.exhaustive), [false, true])
        XCTAssertEqual(backend.counts, ["fast", "exact"])
    }

    func testExactFirstAnswersGetNoSecondPush() throws {
        let backend = FakeBackend(response: ["hits": [], "nbHits": 3, "exhaustive": ["nbHits": true, "typo": true]])
        let outlet = RecordingOutlet()
        let session = makeSession(backend, outlet)
        _ = try session.change { state, _ in
            _ = state.addSearcher(.hits(HitsSearcher(index: "i")))
            state.query = "a"
        }
        eventually { self.results(outlet).count == 1 }
        _ = try session.change { state, _ in state.query = "ab" }
        eventually { self.results(outlet).count == 2 }
        usleep(100_000)  // room for a wrong second push to show
        XCTAssertEqual(results(outlet).map(\.version), [1, 2])
        XCTAssertEqual(results(outlet).map(\.exhaustive), [true, true])
        XCTAssertEqual(backend.calls, 2)
    }

    func testANewerVersionWithinTheDelaySkipsTheCompletion() throws {
        let backend = FakeBackend(response: ["hits": [], "nbHits": 3], estimates: true)
        let outlet = RecordingOutlet()
        let session = makeSession(backend, outlet, completionDelay: .seconds(1))
        _ = try session.change { state, _ in
            _ = state.addSearcher(.hits(HitsSearcher(index: "i")))
            state.query = "a"
        }
        eventually { self.results(outlet).count == 1 }
        XCTAssertEqual(backend.counts, ["fast"])  // version 1's exact search waits
        _ = try session.change { state, _ in state.query = "ab" }
        eventually { self.results(outlet).count == 3 }
        XCTAssertEqual(results(outlet).map(\.version), [1, 2, 2])
        XCTAssertEqual(results(outlet).map(\.exhaustive), [false, false, true])
        XCTAssertEqual(backend.counts, ["fast", "fast", "exact"])
    }

    func testASupersededCompletionIsNeverDelivered() throws {
        let backend = FakeBackend(response: ["hits": [], "nbHits": 3], estimates: true, exactGated: true)
        let outlet = RecordingOutlet()
        let session = makeSession(backend, outlet)
        _ = try session.change { state, _ in
            _ = state.addSearcher(.hits(HitsSearcher(index: "i")))
            state.query = "a"
        }
        eventually { backend.counts == ["fast", "exact"] }  // version 1's completion is held
        _ = try session.change { state, _ in state.query = "ab" }
        eventually { self.results(outlet).contains { $0.version == 2 } }
        backend.releaseExact()  // version 1's completion ends after version 2's first answer
        eventually { backend.counts.count == 4 }  // version 2's completion started after it
        backend.releaseExact()
        eventually { self.results(outlet).last == .init(method: "resultsUpdated", version: 2, query: "ab", exhaustive: true) }
        XCTAssertEqual(results(outlet).map(\.version), [1, 2, 2])
        XCTAssertEqual(results(outlet).map(\.exhaustive), [false, false, true])
        XCTAssertEqual(backend.counts, ["fast", "exact", "fast", "exact"])
    }
}
