import QuarryJSON
import QuarryProtocol
import QuarrySession
import QuarryTransport

/// Session pushes onto connections: encoded once, sent to each subscriber
/// with a coalescing key, so a connection that does not read keeps only the
/// newest state and results of each session.
struct SinkSessionOutlet: SessionOutlet {
    let sink: any MessageSink

    func deliver(_ push: SessionPush, to subscribers: [SubscriberID]) {
        let message: JSON
        let key: String
        switch push {
        case .stateChanged(let session, let version, let state):
            message = StateChangedNotification(session: session, stateVersion: version, state: state).message
            key = "state:\(session)"
        case .resultsUpdated(let session, let version, let results):
            message = ResultsUpdatedNotification(session: session, stateVersion: version, results: results).message
            key = "results:\(session)"
        }
        let bytes = JSONWriter.encode(message)
        for subscriber in subscribers {
            sink.send(bytes, to: ConnectionID(rawValue: subscriber.rawValue), coalescingKey: key)
        }
    }
}

extension ServerConnection {
    var subscriber: SubscriberID { SubscriberID(id.rawValue) }
}
