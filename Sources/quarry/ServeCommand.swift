import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import QuarryBackend
import QuarryEngine
import QuarryProtocol
import QuarryRelay
import QuarryServer
import QuarryTransport
import QuarryTypesense
import QuarryWeb

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the daemon: JSON-RPC on stdin/stdout, or on a Unix socket with --daemon/--socket.",
        discussion: """
            With no option, serves one client on stdin/stdout (what an editor spawns).
            --daemon serves many clients on the default socket ($QUARRY_SOCK, else
            $XDG_RUNTIME_DIR/quarry/quarry.sock); --socket PATH on PATH. --listen PATH
            keeps stdio and also accepts socket clients, so a script can join the editor's session.
            Whatever the mode, the daemon also listens on its data directory's socket (<dir>/quarry.sock);
            a later plain `quarry serve` on the same directory forwards its stdio to it, so any number of
            editors share one daemon, its indices and its sessions.
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

    @Option(help: "Searches run at once (default: the number of cores less one, at least 1).")
    var searchThreads: Int?

    @OptionGroup(title: "Typesense cluster")
    var typesense: TypesenseOptions

    @OptionGroup(title: "HTTP: the search page and JSON-RPC over WebSocket")
    var http: HTTPOptions

    func validate() throws {
        if daemon && socket != nil { throw ValidationError("--daemon and --socket both choose the socket; give one") }
        if (daemon || socket != nil) && listen != nil { throw ValidationError("--listen adds a socket to stdio; it cannot be combined with --daemon or --socket") }
        if let idleTimeout, idleTimeout <= 0 { throw ValidationError("--idle-timeout must be a positive number of seconds") }
        if sessionGrace < 0 { throw ValidationError("--session-grace must be 0 or more seconds") }
        if maxMessageSize < 1024 { throw ValidationError("--max-message-size must be at least 1024 bytes") }
        if let searchThreads, !(1...256).contains(searchThreads) { throw ValidationError("--search-threads must be 1 to 256") }
    }

    func run() throws {
        LargeBlocks.mapOwnPages()
        let log = Log.standardError.function
        let directory = absolutePath(dataDir ?? Locations.defaultDataDirectory)
        Locations.ensureDirectory(directory)
        let ownerSocket = Locations.ownerSocketPath(dataDirectory: directory)
        let cluster: TypesenseConfiguration?
        let webOptions: WebListenerOptions?
        do {
            cluster = try typesense.configuration()
            webOptions = try http.options(maxMessageSize: maxMessageSize)
        } catch {
            Log.standardError.write("quarry: \(error)")
            throw ExitCode(2)
        }
        let engine: Engine
        do {
            engine = try Engine(directory: directory, log: log)
        } catch .directoryLocked {
            // Another process owns the directory: an editor on stdio joins it instead (as gopls -remote=auto).
            guard servesStdioOnly else {
                Log.standardError.write("quarry: another quarry daemon owns \(directory); it listens on \(ownerSocket)")
                throw ExitCode(2)
            }
            let starter = DaemonStarter(socketPath: ownerSocket, dataDirectory: directory)
            let relay = SpawnerRelay(socketPath: ownerSocket, dataDirectory: directory, startOwner: { try starter.start() }, log: log)
            throw ExitCode(relay.run())
        } catch {
            Log.standardError.write("quarry: \(error)")
            throw ExitCode(2)
        }

        var transportConfiguration = TransportConfiguration()
        transportConfiguration.maxMessageSize = maxMessageSize
        transportConfiguration.outputHandoff = HandoffLines()
        let transport = Transport(configuration: transportConfiguration, log: log)
        var sockets: [String] = []
        let requested = daemon ? Locations.socketPath(nil) : (socket ?? listen)
        do {
            if requested == nil || listen != nil { try transport.attachStdio() }
            if let requested {
                // A path the user chose may sit in a shared directory (/tmp); the
                // default one must be private to this user.
                let chosen = socket != nil || listen != nil || Locations.environment["QUARRY_SOCK"] != nil
                // Said before the socket appears: whoever waits for it to connect has been told why it is there.
                if let warning = Locations.warning(forSocket: requested) { log(warning) }
                try transport.listen(on: SocketListenerOptions(path: requested, requirePrivateDirectory: !chosen))
                sockets.append(requested)
            }
        } catch {
            Log.standardError.write("quarry: \(error)")
            throw ExitCode(2)
        }
        // Whatever the mode, the owner is reachable where later spawners of this directory look.
        if ownerSocket != requested {
            do {
                let inDataDirectory = ownerSocket.hasPrefix(directory + "/")
                try transport.listen(on: SocketListenerOptions(path: ownerSocket, requirePrivateDirectory: !inDataDirectory))
                sockets.append(ownerSocket)
            } catch {
                log("warning: cannot listen on \(ownerSocket) (\(error)); another `quarry serve` on \(directory) cannot join this one")
            }
        }
        // An editor's daemon on the default data directory also answers `quarry connect` and the other clients.
        if requested == nil, dataDir == nil {
            let defaultSocket = Locations.socketPath(nil)
            if !sockets.contains(defaultSocket),
               (try? transport.listen(on: SocketListenerOptions(path: defaultSocket))) != nil {
                sockets.append(defaultSocket)
            }
        }
        log("serving \(directory)\(sockets.isEmpty ? "" : " on " + sockets.joined(separator: ", "))")
        if let warning = sockets.lazy.filter({ $0 != requested }).compactMap(Locations.warning(forSocket:)).first { log(warning) }

        var serverConfiguration = ServerConfiguration()
        serverConfiguration.idleTimeout = idleTimeout
        serverConfiguration.maxMessageSize = maxMessageSize
        serverConfiguration.sessionGracePeriod = sessionGrace
        if let searchThreads { serverConfiguration.searchConcurrency = searchThreads }
        serverConfiguration.daemon = DaemonInfo(pid: Int(getpid()), sockets: sockets, dataDirectory: directory)
        var backend: any IndexBackend = engine
        if let cluster {
            backend = RoutedBackend(local: engine, remote: TypesenseBackend(configuration: cluster, log: log), selection: cluster.indices)
            let indices = switch cluster.indices {
            case .all: "every index"
            case .named(let names): names.sorted().joined(separator: ", ")
            }
            log("on the Typesense cluster \(cluster.nodes.joined(separator: ",")): \(indices)")
        }
        let webConnections = WebConnections(
            coalescingThreshold: transportConfiguration.coalescingThreshold, maxQueuedBytes: transportConfiguration.maxQueuedBytes)
        // Any daemon may start HTTP later (`listenHTTP`), so web ids are routed from the start.
        let sink: any MessageSink = RoutingSink(sockets: transport, web: webConnections)
        let web = WebListenerLauncher(options: webOptions, maxMessageSize: maxMessageSize, directory: directory,
                                      connections: webConnections, log: log)
        serverConfiguration.listenHTTP = { try web.start() }
        let server = Server(configuration: serverConfiguration, backend: backend, sink: sink, log: log)
        web.attach(server)
        if webOptions != nil {
            do {
                _ = try web.start()
            } catch {
                Log.standardError.write("quarry: \(error)")
                throw ExitCode(2)
            }
        }
        server.started()
        transport.run(delegate: ServerTransportDelegate(server: server))
        web.stop()
        engine.close()
        throw ExitCode(server.exitCode)
    }

    /// Plain `quarry serve`: one client on stdin/stdout.
    private var servesStdioOnly: Bool { !daemon && socket == nil && listen == nil }
}
