import QuarryEngine
import QuarryJSON
import QuarryProtocol
import QuarrySession
import QuarryTransport

/// Session pushes onto connections: encoded once per position encoding in
/// use (match ranges differ), sent to each subscriber with a coalescing key,
/// so a connection that does not read keeps only the newest state and
/// results of each session.
struct SinkSessionOutlet: SessionOutlet {
    let sink: any MessageSink
    /// The encoding a subscriber negotiated.
    let encoding: @Sendable (SubscriberID) -> PositionEncoding

    func deliver(_ push: SessionPush, to subscribers: [SubscriberID]) {
        let key: String
        let message: (PositionEncoding) -> JSON
        switch push {
        case .stateChanged(let session, let version, let state):
            key = "state:\(session)"
            message = { _ in StateChangedNotification(session: session, stateVersion: version, state: state).message }
        case .resultsUpdated(let session, let version, let results):
            key = "results:\(session)"
            message = { encoding in
                ResultsUpdatedNotification(
                    session: session, stateVersion: version,
                    results: results.map { SessionRanges.result($0, for: encoding) }).message
            }
        }
        var encoded: [PositionEncoding: [UInt8]] = [:]
        for subscriber in subscribers {
            let encoding = self.encoding(subscriber)
            let bytes = encoded[encoding] ?? JSONWriter.encode(message(encoding))
            encoded[encoding] = bytes
            sink.send(bytes, to: ConnectionID(rawValue: subscriber.rawValue), coalescingKey: key)
        }
    }
}

extension ServerConnection {
    var subscriber: SubscriberID { SubscriberID(id.rawValue) }
}
