import QuarryJSON

/// One JSON-RPC message as a client sent it, classified.
public enum IncomingMessage: Sendable, Equatable {
    case request(id: RequestID, method: String, params: JSON?)
    case notification(method: String, params: JSON?)
    /// A client's reply to a server request; Quarry sends none, so these are ignored.
    case response(id: RequestID?)
    /// Not a valid JSON-RPC 2.0 message; reply with `error` to `id` (null when unknown).
    case invalid(id: RequestID?, error: ResponseError)

    /// Classifies one element of a message (a batch is split by the caller).
    public init(json: JSON) {
        guard case .object(let object) = json else {
            self = .invalid(id: nil, error: .invalidRequest("invalid request: a message must be a JSON object, got \(json.kindName)"))
            return
        }
        let idValue = object["id"]
        let id = idValue.flatMap(RequestID.init(json:))
        if let idValue, id == nil {
            self = .invalid(id: nil, error: .invalidRequest("invalid request: 'id' must be an integer or a string, got \(idValue.kindName)"))
            return
        }
        guard object["jsonrpc"] == .string("2.0") else {
            self = .invalid(id: id, error: .invalidRequest("invalid request: 'jsonrpc' must be \"2.0\""))
            return
        }
        guard let methodValue = object["method"] else {
            if object["result"] != nil || object["error"] != nil {
                self = .response(id: id)
            } else {
                self = .invalid(id: id, error: .invalidRequest("invalid request: 'method' is missing"))
            }
            return
        }
        guard case .string(let method) = methodValue else {
            self = .invalid(id: id, error: .invalidRequest("invalid request: 'method' must be a string, got \(methodValue.kindName)"))
            return
        }
        // `null` is absent: pygls sends it for `shutdown` and `exit`, as LSP servers accept.
        var params = object["params"]
        if params?.isNull == true { params = Optional<JSON>.none }
        if let params {
            switch params {
            case .object, .array: break
            default:
                self = .invalid(id: id, error: .invalidRequest("invalid request: 'params' must be an object or an array, got \(params.kindName)"))
                return
            }
        }
        if let id {
            self = .request(id: id, method: method, params: params)
        } else {
            self = .notification(method: method, params: params)
        }
    }
}
