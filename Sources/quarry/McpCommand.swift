#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import QuarryMCP

struct McpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "An MCP server on stdio: coding agents search the user's indices and share their search sessions.",
        discussion: """
            Speaks the Model Context Protocol (newline-delimited JSON-RPC on stdin/stdout) to the agent that \
            spawned it, and talks to the shared daemon (started if none answers), so the indices and sessions \
            are the user's. An MCP client's configuration: {"command": "quarry", "args": ["mcp"]}. \
            See protocol/mcp.md for the tools.
            """)

    @Flag(help: "Also offer the tools that change records: save_objects, delete_objects, import_file.")
    var allowWrites = false
    @Option(help: "The most bytes of JSON one tool result may take.")
    var maxResultBytes = ReplyBudget.defaultResultBytes
    @OptionGroup var daemon: DaemonOptions

    func validate() throws {
        guard maxResultBytes >= 4_000 else { throw ValidationError("--max-result-bytes must be at least 4000") }
    }

    func run() throws {
        // A client that closes our stdout must end us by a failed write, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let daemon = self.daemon
        let runner = ToolRunner(allowWrites: allowWrites, budget: ReplyBudget(resultBytes: maxResultBytes)) {
            ConnectionLink(try daemon.connect(clientName: "quarry mcp"))
        }
        StdioLoop.run(MCPServer(runner: runner))
    }
}
