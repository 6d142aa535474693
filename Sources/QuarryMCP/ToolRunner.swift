import QuarryClient
import QuarryJSON
import QuarryProtocol

/// Runs tool calls against the daemon: checks the arguments, calls the
/// daemon's methods, and shapes each answer into a bounded `CallToolResult`.
/// One call at a time (the stdio loop is sequential), so no locking.
public final class ToolRunner {
    public let allowWrites: Bool
    public let budget: ReplyBudget
    /// Seconds a session tool waits for the session's results.
    let resultsTimeout: Double
    private let connect: () throws -> DaemonLink
    private var link: DaemonLink?
    /// Sessions this connection is attached to, and the newest results each pushed.
    var attached: Set<String> = []
    var latestResults: [String: JSON] = [:]

    public init(allowWrites: Bool, budget: ReplyBudget = ReplyBudget(), resultsTimeout: Double = 10,
                connect: @escaping () throws -> DaemonLink) {
        self.allowWrites = allowWrites
        self.budget = budget
        self.resultsTimeout = resultsTimeout
        self.connect = connect
    }

    /// A `tools/call`: a JSON-RPC error for an unknown tool or bad arguments,
    /// else a result, with `isError` when the tool could not do what was asked.
    public func call(name: String, arguments: JSON?) throws(MCPError) -> JSON {
        guard let tool = ToolCatalogue.tool(named: name, allowWrites: allowWrites) else {
            let hidden = ToolCatalogue.all.contains { $0.name == name && $0.writes }
            throw .invalidArgument("name", hidden
                ? "unknown tool \(name): writes need `quarry mcp --allow-writes`"
                : "unknown tool \(name); tools/list names the tools")
        }
        let checked = try ToolArguments(arguments, parameters: tool.parameters)
        do {
            let (structured, text) = try run(tool.name, checked)
            let result: JSON = ["content": [["type": "text", "text": .string(Self.shortened(text))]],
                                "structuredContent": structured, "isError": false]
            // The lists are cut to the budget; what is left (many facet attributes, say) could still overflow it.
            guard JSONWriter.encode(result).count <= budget.resultBytes else {
                return Self.failure("the answer of \(tool.name) would exceed \(budget.resultBytes) bytes even with its "
                    + "hits cut; ask for fewer facets or attributesToRetrieve.")
            }
            return result
        } catch let failure as ToolFailure {
            return Self.failure(failure.message)
        } catch let error as ClientError {
            if case .rpc(let response) = error { return Self.failure("\(tool.name) failed: \(response.message)") }
            // The connection is gone (the daemon stopped); the next call connects again.
            link = nil
            attached.removeAll()
            latestResults.removeAll()
            return Self.failure("\(error); the next call starts or reconnects to the daemon")
        } catch let error as MCPError {
            throw error
        } catch {
            return Self.failure("\(tool.name) failed: \(error)")
        }
    }

    /// The text summary's bound, within what `ReplyBudget` keeps beside `structuredContent`.
    static let textBytes = 2_000

    /// `text` cut at a line to `textBytes`.
    static func shortened(_ text: String) -> String {
        guard text.utf8.count > textBytes else { return text }
        var kept = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard kept.utf8.count + line.utf8.count + 2 <= textBytes else { break }
            kept += line + "\n"
        }
        return kept + "…"
    }

    static func failure(_ message: String) -> JSON {
        ["content": [["type": "text", "text": .string(message)]], "isError": true]
    }

    private func run(_ name: String, _ arguments: ToolArguments) throws -> (JSON, String) {
        switch name {
        case "list_indices": try listIndices()
        case "search": try search(arguments)
        case "multi_search": try multiSearch(arguments)
        case "facet_values": try facetValues(arguments)
        case "get_objects": try getObjects(arguments)
        case "browse": try browse(arguments)
        case "index_settings": try indexSettings(arguments)
        case "list_sessions": try listSessions()
        case "read_session": try readSession(arguments)
        case "show_in_session": try showInSession(arguments)
        case "save_objects": try saveObjects(arguments)
        case "delete_objects": try deleteObjects(arguments)
        case "import_file": try importFile(arguments)
        default: throw MCPError.invalidArgument("name", "unknown tool \(name)")
        }
    }

    /// A daemon request on the shared daemon, connecting on first use; the
    /// pushes that came with it are filed (see `file`).
    func daemon(_ method: String, _ params: JSON) throws -> JSON {
        let link = try currentLink()
        defer { file(link.takeNotifications()) }
        return try link.call(method, params)
    }

    func currentLink() throws -> DaemonLink {
        if let link { return link }
        let made = try connect()
        link = made
        return made
    }

    /// Keeps the newest `resultsUpdated` of each session.
    func file(_ notifications: [DaemonNotification]) {
        for notification in notifications where notification.method == "resultsUpdated" {
            guard let session = notification.params["session"]?.stringValue else { continue }
            let version = notification.params["stateVersion"]?.intValue ?? 0
            if let known = latestResults[session]?["stateVersion"]?.intValue, known > version { continue }
            latestResults[session] = notification.params
        }
    }

    /// The daemon's error for a request on `index`, as a failure a model can
    /// act on: an unknown index names the closest one, a bad filter keeps the
    /// daemon's position and says what the syntax is.
    func explain(_ error: Error, index: String?, method: String) -> Error {
        guard case .rpc(let response)? = error as? ClientError else { return error }
        let parameter = response.data?["parameter"]?.stringValue ?? ""
        if let index, parameter == "index" || parameter.hasSuffix(".index") || response.message.contains("does not exist") {
            let names = ((try? daemon("listIndices", [:]))?["items"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
            var message = "index `\(index)` does not exist."
            // The daemon's own suggestion (protocol/README.md, -32602), the same rule for every client.
            if let closest = response.data?["didYouMean"]?.stringValue { message += " Did you mean `\(closest)`?" }
            message += names.isEmpty ? " There are no indices yet." : " The indices are: \(names.joined(separator: ", "))."
            return ToolFailure(message)
        }
        if parameter.lowercased().contains("filter") || response.message.lowercased().contains("filter") {
            let reason = response.message.hasPrefix("invalid params: ") ? String(response.message.dropFirst(16)) : response.message
            return ToolFailure("\(parameter.isEmpty ? "filters" : parameter): \(reason). Filters use Algolia "
                + "syntax, e.g. `tags:climate AND duration > 600`; each attribute must be in the index's "
                + "attributesForFaceting (see index_settings).")
        }
        return ToolFailure("\(method) failed: \(response.message)\(parameter.isEmpty ? "" : " (argument `\(parameter)`)")")
    }

    /// `daemon`, with its errors explained for `index`.
    func daemon(_ method: String, _ params: JSON, index: String?) throws -> JSON {
        do {
            return try daemon(method, params)
        } catch {
            throw explain(error, index: index, method: method)
        }
    }
}
