import ArgumentParser

@main
struct Quarry: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A local search daemon: InstantSearch sessions over JSON-RPC, on an embedded engine.",
        subcommands: [
            ServeCommand.self, ConnectCommand.self, StopCommand.self,
            ImportCommand.self, ExportCommand.self, SearchCommand.self, SettingsCommand.self,
            CallCommand.self, WatchCommand.self, FzfCommand.self, McpCommand.self,
            OpenCommand.self,
        ])
}
