import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import QuarryClient
import QuarryJSON
import QuarryProtocol
import QuarryWeb

/// `quarry open`: the search page of the shared daemon, on a session (protocol/websocket.md).
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the search page in a browser (or print its address), following a session.",
        discussion: """
            Starts the shared daemon with an HTTP listener on 127.0.0.1 if none runs (or with config.json's \
            http.listen), or the listener of a daemon that runs without one, then opens http://127.0.0.1:PORT/#key=…&session=… with the search-only key in the \
            fragment, which the browser never sends to the server. The key stays off every command line: \
            the browser is handed a private file that redirects to the page. Without a display, or with \
            --print, the address is printed instead.
            """)

    @Argument(help: "The index to search when the session has no hits searcher yet (default: the first).")
    var index: String?

    @Option(help: "The session to join or create.")
    var session: String = "web"

    @Flag(help: "Print the address instead of opening a browser.")
    var print = false

    @OptionGroup var daemonOptions: DaemonOptions

    func run() throws {
        try reportingErrors("open") {
            let url = try pageAddress()
            if print || !openInBrowser(url) {
                Swift.print(url)
            }
        }
    }

    private func pageAddress() throws -> String {
        let socketPath = daemonOptions.socketPath
        var connection: DaemonConnection
        do {
            connection = try DaemonConnection(socketPath: socketPath)
        } catch {
            try startDaemon(socketPath: socketPath)
            connection = try DaemonConnection(socketPath: socketPath)
        }
        let initialized = try connection.initialize(clientName: "quarry open")
        guard case .string(let directory)? = initialized["daemon"]?.objectValue?["dataDirectory"] else {
            throw ValidationError("the daemon at \(socketPath) does not say where its data is")
        }
        // Asked rather than read from <data-dir>/http-address: a daemon started without --http starts its
        // listener now, and a file left by a daemon that was killed cannot mislead.
        let listening = try connection.request(ListenHTTPRequest.method, params: [:])
        guard let text = listening["address"]?.stringValue, let address = WebAddress(parsing: text) else {
            throw ValidationError("the daemon at \(socketPath) did not say where it serves HTTP")
        }
        let keys = try WebKeys.loadOrCreate(dataDirectory: directory)
        var host = address.host
        if host == "0.0.0.0" { host = "127.0.0.1" } else if host == "::" { host = "::1" }
        let reachable = WebAddress(host: host, port: address.port)
        var fragment = "key=\(keys.search)&session=\(Self.percentEncoded(session))"
        if let index { fragment += "&index=\(Self.percentEncoded(index))" }
        return "http://\(reachable)/#\(fragment)"
    }

    /// A background daemon like the other commands', with HTTP on a free loopback port unless config.json names one.
    private func startDaemon(socketPath: String) throws {
        let directory = absolutePath(daemonOptions.dataDir ?? Locations.defaultDataDirectory)
        Locations.ensureDirectory(directory)
        var arguments = ["--data-dir", directory, "--idle-timeout", "600"]
        if try HTTPOptions.configFile() == nil { arguments += ["--http", "127.0.0.1:0"] }
        try DaemonLauncher.start(socketPath: socketPath, arguments: arguments, logPath: directory + "/daemon.log")
    }

    /// Hands the browser a 0600 file that redirects to `url`, so the key is on no command line.
    private func openInBrowser(_ url: String) -> Bool {
        let environment = Locations.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
              let opener = ["xdg-open", "sensible-browser"].first(where: { Self.onPath($0, environment["PATH"]) })
        else { return false }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let path = runtime + "/quarry-open-\(getuid()).html"
        let page = Array("""
            <!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(url)"><title>Quarry</title>
            """.utf8)
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return false }
        let written = page.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == page.count else { return false }
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(opener), strdup("file://" + path), nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawnp(&pid, opener, nil, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status == 0
    }

    private static func onPath(_ program: String, _ path: String?) -> Bool {
        (path ?? "/usr/bin:/bin").split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte < 0x80) && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~".unicodeScalars.contains(scalar)) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
