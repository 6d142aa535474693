import QuarryJSON

/// A JSON-RPC request id, echoed back exactly as the client sent it.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    public init?(json: JSON) {
        switch json {
        case .int(let value): self = .number(value)
        case .string(let value): self = .string(value)
        default: return nil
        }
    }

    public var json: JSON {
        switch self {
        case .number(let value): .int(value)
        case .string(let value): .string(value)
        }
    }

    public var description: String {
        switch self {
        case .number(let value): String(value)
        case .string(let value): JSONWriter.string(.string(value))
        }
    }
}
