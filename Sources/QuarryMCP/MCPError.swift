import QuarryJSON
import QuarryProtocol

/// A JSON-RPC error answered to an MCP request: the request itself was wrong
/// (unknown method or tool, malformed arguments), as opposed to a tool that
/// ran and failed, which is a result with `isError` (`ToolFailure`).
public struct MCPError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSON?

    public init(code: Int, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// -32602 naming the offending argument in the message and in `data.parameter`.
    public static func invalidArgument(_ parameter: String, _ message: String) -> MCPError {
        MCPError(code: ErrorCode.invalidParams.rawValue, message: "\(parameter): \(message)",
                 data: ["parameter": .string(parameter)])
    }

    public static func methodNotFound(_ method: String) -> MCPError {
        MCPError(code: ErrorCode.methodNotFound.rawValue, message: "method not found: \(method)")
    }

    /// MCP's code for a resource URI that names nothing.
    public static func resourceNotFound(_ uri: String) -> MCPError {
        MCPError(code: -32002, message: "resource not found: \(uri)", data: ["uri": .string(uri)])
    }

    public var json: JSON {
        var object: JSONObject = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}

/// A tool that ran and could not do what was asked: answered as a tool
/// result with `isError: true` and a message a model can act on.
public struct ToolFailure: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }
}
