import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import QuarryEngine
import QuarryServer
import QuarryTransport

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the daemon: JSON-RPC on stdin/stdout, or on a Unix socket with --daemon/--socket.",
        discussion: """
            With no option, serves one client on stdin/stdout (what an editor spawns).
            --daemon serves many clients on the default socket ($QUARRY_SOCK, else
            $XDG_RUNTIME_DIR/quarry/quarry.sock); --socket PATH on PATH. --listen PATH
            keeps stdio and also accepts socket clients, so a script can join the editor's session.
            """)

    @Flag(help: "Serve on the default Unix socket instead of stdio.")
    var daemon = false

    @Option(help: "Serve on this Unix socket instead of stdio.")
    var socket: String?

    @Option(help: "Serve stdio and also accept socket clients on this path.")
    var listen: String?

    @Option(help: "The data directory (default: $XDG_DATA_HOME/quarry).")
    var dataDir: String?

    @Option(help: "Stop after this many seconds with no socket client.")
    var idleTimeout: Double?

    @Option(help: "Keep a session nobody is attached to for this many seconds.")
    var sessionGrace: Double = 300

    @Option(help: "The largest message accepted, in bytes.")
    var maxMessageSize: Int = 64 << 20

    func validate() throws {
        if daemon && socket != nil { throw ValidationError("--daemon and --socket both choose the socket; give one") }
        if (daemon || socket != nil) && listen != nil { throw ValidationError("--listen adds a socket to stdio; it cannot be combined with --daemon or --socket") }
        if let idleTimeout, idleTimeout <= 0 { throw ValidationError("--idle-timeout must be a positive number of seconds") }
        if sessionGrace < 0 { throw ValidationError("--session-grace must be 0 or more seconds") }
        if maxMessageSize < 1024 { throw ValidationError("--max-message-size must be at least 1024 bytes") }
    }

    func run() throws {
        let log = Log.standardError.function
        let directory = dataDir ?? Locations.defaultDataDirectory
        Locations.ensureDirectory(directory)
        let engine: Engine
        do {
            engine = try Engine(directory: directory, log: log)
        } catch {
            Log.standardError.write("quarry: \(error)")
            throw ExitCode(2)
        }

        var transportConfiguration = TransportConfiguration()
        transportConfiguration.maxMessageSize = maxMessageSize
        let transport = Transport(configuration: transportConfiguration, log: log)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.idleTimeout = idleTimeout
        serverConfiguration.maxMessageSize = maxMessageSize
        serverConfiguration.sessionGracePeriod = sessionGrace
        let server = Server(configuration: serverConfiguration, engine: engine, sink: transport, log: log)

        let socketPath = daemon ? Locations.socketPath(nil) : (socket ?? listen)
        do {
            if socketPath == nil || listen != nil { try transport.attachStdio() }
            if let socketPath {
                // A path the user chose may sit in a shared directory (/tmp); the
                // default one must be private to this user.
                let chosen = socket != nil || listen != nil || Locations.environment["QUARRY_SOCK"] != nil
                try transport.listen(on: SocketListenerOptions(path: socketPath, requirePrivateDirectory: !chosen))
                log("listening on \(socketPath) (data: \(directory))")
            }
        } catch {
            Log.standardError.write("quarry: \(error)")
            throw ExitCode(2)
        }
        server.started()
        transport.run(delegate: ServerTransportDelegate(server: server))
        engine.close()
        throw ExitCode(server.exitCode)
    }
}
