import Glibc
import QuarryTransport

/// Echoes every payload back and records every event; tests wait on its log.
/// A payload of `close-me` is echoed and then the connection is closed.
final class RecordingDelegate: TransportDelegate, @unchecked Sendable {
    enum Event: Equatable {
        case open(ConnectionID, ConnectionKind)
        case receive(ConnectionID, [UInt8])
        case fail(ConnectionID, FramingError)
        case close(ConnectionID)
        case lostPeer(ConnectionID)
        case signal(Int32)
    }

    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var log: [Event] = []  // guarded by mutex
    let echo: Bool

    init(echo: Bool = true) {
        self.echo = echo
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    var events: [Event] {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return log
    }

    /// Waits until `predicate` holds over the events; the timeout only guards against a hang.
    @discardableResult
    func waitUntil(seconds: Int = 30, _ predicate: ([Event]) -> Bool) -> [Event]? {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += seconds
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !predicate(log) {
            if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT { return predicate(log) ? log : nil }
        }
        return log
    }

    func opened(count: Int) -> [ConnectionID] {
        let events = waitUntil { $0.openIDs.count >= count } ?? []
        return events.openIDs
    }

    private func record(_ event: Event) {
        pthread_mutex_lock(&mutex)
        log.append(event)
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func transport(_ transport: Transport, didOpen connection: ConnectionID, kind: ConnectionKind) {
        record(.open(connection, kind))
    }

    func transport(_ transport: Transport, didReceive payload: [UInt8], on connection: ConnectionID) {
        // Recorded after the echo is posted, so a test that saw the event knows the echo is queued first.
        if echo {
            transport.send(payload, to: connection)
            if payload == Array("close-me".utf8) { transport.close(connection) }
        }
        record(.receive(connection, payload))
    }

    func transport(_ transport: Transport, didFail error: FramingError, on connection: ConnectionID) {
        record(.fail(connection, error))
    }

    func transport(_ transport: Transport, didClose connection: ConnectionID) {
        record(.close(connection))
    }

    func transport(_ transport: Transport, didLosePeer connection: ConnectionID) {
        record(.lostPeer(connection))
    }

    func transportDidReceiveTerminationSignal(_ transport: Transport, signal: Int32) {
        record(.signal(signal))
    }
}

extension Array where Element == RecordingDelegate.Event {
    var openIDs: [ConnectionID] {
        compactMap { if case .open(let id, _) = $0 { id } else { nil } }
    }

    func closed(_ id: ConnectionID) -> Bool { contains(.close(id)) }
}
