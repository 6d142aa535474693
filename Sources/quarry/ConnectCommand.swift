import ArgumentParser
import QuarryClient
import QuarryTransport

struct ConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Forward stdin/stdout to the shared daemon's socket, starting the daemon if none answers.",
        discussion: "For frontends that can only spawn a child process: they speak JSON-RPC to `quarry connect` as if it were `quarry serve`.")

    @Option(help: "The daemon's socket (default: $QUARRY_SOCK, else $XDG_RUNTIME_DIR/quarry/quarry.sock).")
    var socket: String?

    @Option(help: "Join the daemon that owns this data directory (at <dir>/quarry.sock), starting one if none does.")
    var dataDir: String?

    func run() throws {
        let path = socket == nil && dataDir != nil
            ? Locations.ownerSocketPath(dataDirectory: absolutePath(dataDir ?? ""))
            : Locations.socketPath(socket)
        let starter = DaemonStarter(socketPath: path, dataDirectory: dataDir)
        let code = try Forwarder.run(socketPath: path, startDaemon: { try starter.start() }, log: Log.standardError.function)
        throw ExitCode(code)
    }
}

/// Starts a background daemon for the client commands, logging beside its data.
struct DaemonStarter {
    var socketPath: String
    var dataDirectory: String?
    /// A daemon started on a client's behalf ends after ten idle minutes.
    var idleTimeout = 600

    func start() throws {
        if let warning = Locations.warning(forSocket: socketPath) { Log.standardError.write(warning) }
        let directory = absolutePath(dataDirectory ?? Locations.defaultDataDirectory)
        Locations.ensureDirectory(directory)
        try DaemonLauncher.start(
            socketPath: socketPath,
            arguments: ["--data-dir", directory, "--idle-timeout", String(idleTimeout)],
            logPath: directory + "/daemon.log")
    }
}
