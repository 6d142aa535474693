import QuarryJSON

/// The `error` member of a JSON-RPC response.
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    public var data: JSON?

    public init(code: ErrorCode, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var json: JSON {
        var object: JSONObject = ["code": .int(Int64(code.rawValue)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func invalidParams(_ message: String, parameter: String? = nil) -> ResponseError {
        ResponseError(code: .invalidParams, message: message,
                      data: parameter.map { .object(["parameter": .string($0)]) })
    }

    public static func invalidRequest(_ message: String) -> ResponseError {
        ResponseError(code: .invalidRequest, message: message)
    }

    public static func internalError(_ message: String) -> ResponseError {
        ResponseError(code: .internalError, message: message)
    }

    public static let cancelled = ResponseError(code: .requestCancelled, message: "request cancelled by the client")
}
