import Dispatch
import QuarryJSON
import QuarryServer
import QuarryTransport
import XCTest

/// A sink that keeps what the server sends, for tests that need no transport.
final class RecordingSink: MessageSink, @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private let arrived = DispatchSemaphore(value: 0)
    private var messages: [(ConnectionID, JSON)] = []
    private var closed: [ConnectionID] = []
    private(set) var stopped = false

    func send(_ payload: [UInt8], to connection: ConnectionID, coalescingKey: String?) {
        lock.wait()
        // The server only sends what its own writer produced; a parse failure here is a test failure.
        messages.append((connection, (try? JSONParser.parse(payload)) ?? "<unparsable>"))
        lock.signal()
        arrived.signal()
    }

    func close(_ connection: ConnectionID) {
        lock.wait(); closed.append(connection); lock.signal()
    }

    func stop() {
        lock.wait(); stopped = true; lock.signal()
        arrived.signal()
    }

    /// Waits until `count` messages arrived (or 5 s passed) and returns them.
    func waitForMessages(_ count: Int, file: StaticString = #filePath, line: UInt = #line) -> [JSON] {
        for _ in 0..<count where snapshot().count < count {
            _ = arrived.wait(timeout: .now() + 5)
        }
        let all = snapshot()
        XCTAssertGreaterThanOrEqual(all.count, count, "messages that arrived: \(all)", file: file, line: line)
        return all
    }

    func snapshot() -> [JSON] {
        lock.wait(); defer { lock.signal() }
        return messages.map(\.1)
    }

    /// What was sent to one connection, in order.
    func snapshot(for connection: ConnectionID) -> [JSON] {
        lock.wait(); defer { lock.signal() }
        return messages.filter { $0.0 == connection }.map(\.1)
    }

    var closedConnections: [ConnectionID] {
        lock.wait(); defer { lock.signal() }
        return closed
    }

    var isStopped: Bool {
        lock.wait(); defer { lock.signal() }
        return stopped
    }
}
