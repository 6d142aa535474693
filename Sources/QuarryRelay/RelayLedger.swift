import QuarryJSON
import QuarryTransport

/// What a relay must remember about its frontend's conversation to move it to
/// another daemon: the handshake and the sessions it opened (replayed there),
/// the requests still owed a reply (answered with an error if the daemon that
/// had them went away), and whether the frontend is ending.
struct RelayLedger {
    var framing: Framing?
    var initialize: JSONObject?
    var initialized = false
    /// openSession requests by session name, replayed in this order.
    var sessions: [(name: String, request: JSONObject)] = []
    /// Requests sent and not answered: id text → (id, the connection generation it went to).
    var inFlight: [String: (id: JSON, generation: Int)] = [:]
    /// Ids of the relay's own replayed requests, whose replies the frontend must not see.
    var ownRequests: Set<String> = []
    var nextOwnID = 0
    var shutdownSent = false
    /// The frontend sent `exit` or `stopServer`, or closed its input: the daemon closing is the end.
    var ending = false

    /// Notes one message from the frontend (a request, a notification or a batch of them).
    mutating func recordOutgoing(_ message: JSON, generation: Int) {
        if case .array(let elements) = message {
            for element in elements { recordOutgoing(element, generation: generation) }
            return
        }
        guard case .object(let object) = message, let method = object["method"]?.stringValue else { return }
        let id = object["id"].flatMap { $0.isNull ? nil : $0 }
        switch method {
        case "initialize" where id != nil: initialize = object
        case "initialized": initialized = true
        case "openSession":
            if let name = object["params"]?["session"]?.stringValue {
                sessions.removeAll { $0.name == name }
                sessions.append((name, object))
            }
        case "closeSession":
            if let name = object["params"]?["session"]?.stringValue { sessions.removeAll { $0.name == name } }
        case "shutdown": shutdownSent = true
        case "exit", "stopServer": ending = true
        default: break
        }
        if let id { inFlight[JSONWriter.string(id)] = (id, generation) }
    }

    /// Undoes `recordOutgoing` for a message that never reached the daemon, before it is sent again.
    mutating func forget(_ message: JSON) {
        if case .array(let elements) = message {
            for element in elements { forget(element) }
            return
        }
        guard case .object(let object) = message, let method = object["method"]?.stringValue else { return }
        switch method {
        case "initialize": initialize = nil
        case "initialized": initialized = false
        case "openSession":
            if let name = object["params"]?["session"]?.stringValue { sessions.removeAll { $0.name == name } }
        default: break
        }
        if let id = object["id"], !id.isNull { inFlight[JSONWriter.string(id)] = nil }
    }

    /// Notes a reply from the daemon; false when it answers the relay's own request.
    mutating func recordReply(id text: String) -> Bool {
        if ownRequests.remove(text) != nil { return false }
        inFlight[text] = nil
        return true
    }

    /// The handshake and sessions to send to a new daemon, with the relay's own ids.
    mutating func replay() -> [JSON] {
        var messages: [JSON] = []
        func own(_ request: JSONObject) -> JSON {
            nextOwnID += 1
            let id = JSON.string("quarry-relay-\(nextOwnID)")
            ownRequests.insert(JSONWriter.string(id))
            var copy = request
            copy["id"] = id
            return .object(copy)
        }
        if let initialize { messages.append(own(initialize)) }
        if initialized { messages.append(["jsonrpc": "2.0", "method": "initialized", "params": [:]]) }
        for session in sessions { messages.append(own(session.request)) }
        return messages
    }

    /// Takes the requests that went to generations up to `generation`: their daemon is gone.
    mutating func orphans(upTo generation: Int) -> [JSON] {
        let lost = inFlight.filter { $0.value.generation <= generation }
        for key in lost.keys { inFlight[key] = nil }
        return lost.values.map(\.id)
    }
}
