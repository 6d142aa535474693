#if canImport(Glibc)
import Glibc
#endif
import QuarrySync
import XCTest

final class DetachedThreadTests: XCTestCase {
    /// The body runs once, on another thread, which carries the (shortened) name.
    func testRunsTheBodyOnANamedThreadOfItsOwn() throws {
        let caller = pthread_self()
        let seen = Eventual<(sameThread: Bool, name: String)>()
        try DetachedThread.start(name: "quarry-test-thread-name") {
            seen.deliver((pthread_equal(pthread_self(), caller) != 0, Self.threadName()))
        }
        let (sameThread, name) = seen.wait()
        XCTAssertFalse(sameThread)
        XCTAssertEqual(name, "quarry-test-thr")
    }

    /// Many short-lived threads: each runs exactly once and none is left joinable.
    func testManyThreadsEachRunOnce() throws {
        let count = Locked(0)
        let done = Eventual<Void>()
        for _ in 0..<200 {
            try DetachedThread.start(name: "quarry-many") {
                if count.withLock({ value -> Bool in value += 1; return value == 200 }) { done.deliver(()) }
            }
        }
        done.wait()
        XCTAssertEqual(count.withLock { $0 }, 200)
    }

    private static func threadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
    }
}
