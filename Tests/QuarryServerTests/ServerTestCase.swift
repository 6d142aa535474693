import Foundation
import QuarryBackend
import QuarryEngine
import QuarryServer
import QuarryTransport
import XCTest

/// A server over a real engine in a fresh directory, with a recording sink
/// instead of a transport.
class ServerTestCase: XCTestCase {
    var sink = RecordingSink()
    var server: Server!
    private var engine: Engine!
    private var directory = ""

    override func setUpWithError() throws {
        directory = "/tmp/quarry-server-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o700)
        engine = try Engine(directory: directory, log: { _ in })
        sink = RecordingSink()
        server = Server(configuration: ServerConfiguration(), backend: engine, sink: sink, log: { _ in })
    }

    override func tearDown() {
        engine.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
