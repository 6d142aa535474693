import QuarryJSON
import QuarryProtocol
import QuarrySession
import QuarryTransport
import QuarrySearchContract

/// Session pushes onto connections: encoded once per position encoding in
/// use (match ranges differ), sent to each subscriber with a coalescing key,
/// so a connection that does not read keeps only the newest state and
/// results of each session.
struct SinkSessionOutlet: SessionOutlet {
    let sink: any MessageSink
    /// The encoding a subscriber negotiated.
    let encoding: @Sendable (SubscriberID) -> PositionEncoding

    func deliver(_ push: SessionPush, to subscribers: [SubscriberID]) {
        switch push {
        case .stateChanged(let session, let version, let state):
            let bytes = JSONWriter.encode(StateChangedNotification(session: session, stateVersion: version, state: state).message)
            for subscriber in subscribers { send(bytes, to: subscriber, key: "state:\(session)") }
        case .resultsUpdated(let session, let version, let results, let exhaustive):
            // Only the match ranges differ between encodings: one encoding per encoding in use.
            var encoded: [PositionEncoding: [UInt8]] = [:]
            for subscriber in subscribers {
                let encoding = self.encoding(subscriber)
                let bytes = encoded[encoding] ?? JSONWriter.encode(ResultsUpdatedNotification(
                    session: session, stateVersion: version,
                    results: results.map { $0.json(in: encoding) }, exhaustive: exhaustive).message)
                encoded[encoding] = bytes
                send(bytes, to: subscriber, key: "results:\(session)")
            }
        }
    }

    private func send(_ bytes: [UInt8], to subscriber: SubscriberID, key: String) {
        sink.send(bytes, to: ConnectionID(rawValue: subscriber.rawValue), coalescingKey: key)
    }
}

extension ServerConnection {
    var subscriber: SubscriberID { SubscriberID(id.rawValue) }
}
