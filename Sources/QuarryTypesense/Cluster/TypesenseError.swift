import QuarryJSON
import QuarrySearchContract

/// Why a call to the cluster failed.
public enum TypesenseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Typesense refused the request (a 4xx, or a 5xx that carries a message):
    /// sending it again cannot help. `message` is Typesense's own.
    case http(status: Int, message: String)
    /// No node could serve the call; each node's state. A write that gets this was not applied,
    /// unless it was sent and the answer was lost (then the text says so).
    case unavailable(String)
    /// A success status whose body is not what the call expects.
    case invalidResponse(String)

    public var description: String {
        switch self {
        case .http(let status, let message): "Typesense answered \(status): \(message)"
        case .unavailable(let state): state
        case .invalidResponse(let why): "unexpected Typesense response: \(why)"
        }
    }

    /// `true` for a 404: callers decide what is missing (`.indexNotFound` for a collection or alias).
    public var isNotFound: Bool {
        if case .http(404, _) = self { true } else { false }
    }

    /// The engine's error for this failure, when the caller has no better one
    /// (such as `.indexNotFound` for a 404 on a collection).
    public var engineError: BackendError {
        switch self {
        case .unavailable(let state): .unavailable(state)
        case .http, .invalidResponse: .storage(description)
        }
    }

    /// From an error answer: Typesense's `message` when the body has one, else the body text.
    static func http(_ response: HTTPResponse) -> TypesenseError {
        let message: String
        if let json = try? JSONParser.parse(response.body), let text = json["message"]?.stringValue {
            message = text
        } else {
            message = String(decoding: response.body.prefix(500), as: UTF8.self)
        }
        return .http(status: response.status, message: message)
    }
}
