import Foundation
import QuarryTransport

/// A `Transport` whose loop runs on a background thread for the duration of a test.
final class RunningTransport {
    let transport: Transport
    let delegate: RecordingDelegate
    private let finished = DispatchSemaphore(value: 0)
    private var stopped = false

    init(configuration: TransportConfiguration = .init(), delegate: RecordingDelegate = RecordingDelegate(),
         setUp: (Transport) throws -> Void) throws {
        transport = Transport(configuration: configuration, log: { _ in })
        self.delegate = delegate
        try setUp(transport)
        let thread = Thread { [transport, delegate, finished] in
            transport.run(delegate: delegate)
            finished.signal()
        }
        thread.start()
    }

    /// Stops the transport and waits for `run` to return; false if it did not.
    @discardableResult
    func stop() -> Bool {
        guard !stopped else { return true }
        stopped = true
        transport.stop()
        return finished.wait(timeout: .now() + 30) == .success
    }

    deinit { stop() }
}
