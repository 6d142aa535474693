import QuarryJSON
import QuarryProtocol
import QuarrySearchContract

/// The one mapping of backend errors to JSON-RPC, for index methods and sessions alike
/// (protocol/README.md, "Error codes").
extension ResponseError {
    /// Bad parameters are -32602 naming the parameter; a missing index or a bad record is -32602
    /// too (the request named something that cannot be used). A full disk, a failing store, an
    /// exhausted limit and an unreachable cluster have codes of their own; -32603 is left for bugs.
    init(backend error: BackendError) {
        switch error {
        case .invalidParameter(let name, _):
            self = .invalidParams("invalid params: \(error)", parameter: name)
        case .invalidSetting(let name, _):
            self = .invalidParams("invalid params: \(error)", parameter: "settings.\(name)")
        case .indexNotFound:
            self = .invalidParams("invalid params: \(error)", parameter: "index")
        case .invalidRecord:
            self = .invalidParams("invalid params: \(error)")
        case .cancelled:
            self = .cancelled
        case .diskFull:
            self = ResponseError(code: .diskFull, message: "\(error); nothing was written, and writes work again once space is freed",
                                 data: ["reason": "diskFull"])
        case .storage:
            self = ResponseError(code: .storageFailure, message: "\(error); nothing was written", data: ["reason": "storage"])
        case .resourceExhausted:
            self = ResponseError(code: .resourceExhausted, message: "\(error); nothing was written",
                                 data: ["reason": "resourceExhausted"])
        case .unavailable:
            self = ResponseError(code: .backendUnavailable, message: "\(error); a write that got this was not applied",
                                 data: ["reason": "backendUnavailable"])
        case .directoryLocked:
            self = .internalError("internal error: \(error)")
        }
    }
}
