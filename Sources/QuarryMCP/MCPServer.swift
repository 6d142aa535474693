import QuarryJSON
import QuarryProtocol

/// The MCP side of `quarry mcp`: one JSON-RPC message in, at most one out
/// (protocol/mcp.md). Lifecycle (`initialize`, `ping`), tools and resources;
/// the tools' work is `ToolRunner`'s.
public final class MCPServer {
    public static let name = "quarry"
    public static let version = "0.1.0"

    public let runner: ToolRunner
    public private(set) var negotiatedVersion: String?

    public init(runner: ToolRunner) {
        self.runner = runner
    }

    /// The reply to one line of newline-delimited JSON-RPC, or nil when none is owed.
    public func handle(line: some Collection<UInt8>) -> JSON? {
        let message: JSON
        do {
            message = try JSONParser.parse(line)
        } catch {
            return Self.errorReply(id: .null, MCPError(code: ErrorCode.parseError.rawValue, message: "parse error: \(error)"))
        }
        return handle(message)
    }

    public func handle(_ message: JSON) -> JSON? {
        guard case .object(let fields) = message else {
            // MCP has no batches since 2025-06-18.
            return Self.errorReply(id: .null, MCPError(code: ErrorCode.invalidRequest.rawValue,
                                                       message: "a message must be one JSON-RPC object"))
        }
        let id = fields["id"]
        guard let method = fields["method"]?.stringValue else {
            // A response to a request this server never sends; an envelope with neither is invalid.
            if fields["result"] != nil || fields["error"] != nil { return nil }
            return Self.errorReply(id: id ?? .null, MCPError(code: ErrorCode.invalidRequest.rawValue, message: "no method"))
        }
        guard let id, !id.isNull else { return nil }  // Notifications: initialized, cancelled; none needs an answer.
        switch id {
        case .string, .int: break
        default: return Self.errorReply(id: .null, MCPError(code: ErrorCode.invalidRequest.rawValue, message: "id must be a string or an integer"))
        }
        do {
            return ["jsonrpc": "2.0", "id": id, "result": try answer(method, fields["params"])]
        } catch {
            return Self.errorReply(id: id, error)
        }
    }

    private func answer(_ method: String, _ params: JSON?) throws(MCPError) -> JSON {
        switch method {
        case "initialize": return try initialize(params)
        case "ping": return [:]
        case "tools/list":
            return ["tools": .array(ToolCatalogue.tools(allowWrites: runner.allowWrites).map(\.json))]
        case "tools/call":
            guard let name = params?["name"]?.stringValue else {
                throw .invalidArgument("name", "is required: the tool to call")
            }
            return try runner.call(name: name, arguments: params?["arguments"])
        case "resources/list": return try runner.listResources()
        case "resources/templates/list": return ToolRunner.resourceTemplates
        case "resources/read":
            guard let uri = params?["uri"]?.stringValue else { throw .invalidArgument("uri", "is required") }
            return try runner.readResource(uri)
        default: throw .methodNotFound(method)
        }
    }

    private func initialize(_ params: JSON?) throws(MCPError) -> JSON {
        guard let requested = params?["protocolVersion"]?.stringValue else {
            throw .invalidArgument("protocolVersion", "is required")
        }
        let version = ProtocolVersion.negotiate(requested: requested)
        negotiatedVersion = version
        return [
            "protocolVersion": .string(version),
            "capabilities": ["tools": ["listChanged": false], "resources": ["listChanged": false, "subscribe": false]],
            "serverInfo": ["name": .string(Self.name), "title": "Quarry", "version": .string(Self.version)],
            "instructions": .string(Self.instructions(allowWrites: runner.allowWrites, bytes: runner.budget.resultBytes)),
        ]
    }

    static func instructions(allowWrites: Bool, bytes: Int) -> String {
        """
        Quarry searches the user's local indices. Start with list_indices, then search (Algolia filter syntax). \
        Sessions are the user's live searches: read_session shows what the user is looking at, show_in_session \
        puts a search in front of them. Replies are cut to \(bytes) bytes; notes say how to page. \
        \(allowWrites ? "Writes are enabled." : "The index is read-only here (writes need quarry mcp --allow-writes).")
        """
    }

    static func errorReply(id: JSON, _ error: MCPError) -> JSON {
        ["jsonrpc": "2.0", "id": id, "error": error.json]
    }
}
