import Dispatch
import Foundation
import QuarrySync
@testable import QuarryTypesense
import XCTest

/// Background refreshes wait for the searches in flight:
/// 1. with no search in flight a refresh starts at once;
/// 2. during a search it starts once the last search in flight (nested ones too) has ended;
/// 3. searches back to back hold it off for `maxWait` at most.
final class RefreshGateTests: XCTestCase {
    func testARefreshStartsAtOnceWhenNoSearchIsInFlight() {
        let gate = RefreshGate()
        let started = Locked(false)
        gate.whenIdle { started.withLock { $0 = true } }
        XCTAssertTrue(started.withLock { $0 })
    }

    func testARefreshWaitsForTheLastSearchInFlight() {
        let gate = RefreshGate(maxWait: .seconds(60))
        let started = Locked(0)
        gate.reading {
            gate.reading {
                gate.whenIdle { started.withLock { $0 += 1 } }
                gate.whenIdle { started.withLock { $0 += 1 } }
            }
            XCTAssertEqual(started.withLock { $0 }, 0, "an outer search is still in flight")
        }
        XCTAssertEqual(started.withLock { $0 }, 2)
        gate.reading {}
        XCTAssertEqual(started.withLock { $0 }, 2, "each refresh starts once")
    }

    func testSearchesBackToBackHoldARefreshOffForMaxWaitAtMost() {
        let gate = RefreshGate(maxWait: .milliseconds(50))
        let started = expectation(description: "the refresh started during a search")
        let inSearch = Locked(false)
        DispatchQueue.global().async {
            gate.reading {
                inSearch.withLock { $0 = true }
                Thread.sleep(forTimeInterval: 5)
            }
        }
        while !inSearch.withLock({ $0 }) { usleep(1000) }
        gate.whenIdle { started.fulfill() }
        wait(for: [started], timeout: 3)
    }
}
