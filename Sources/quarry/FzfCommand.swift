import ArgumentParser
import QuarryClient
import QuarryJSON
import QuarryTypesense
#if canImport(Glibc)
import Glibc
#endif

struct FzfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fzf",
        abstract: "Search an index live in fzf, through a shared session, and print the chosen records.",
        discussion: """
            fzf runs with --disabled: every keystroke reloads the list through the session's query \
            (setQuery), so other frontends attached to the session see the typing. The header says how \
            many records match (fzf's own counter would count only the lines listed). Matches show in \
            colour; the preview shows the whole record. The chosen records are printed as JSON lines.
              quarry fzf talks --session demo | jq -r .title
            Needs fzf 0.38 or newer (Debian: apt-get install fzf).
            """)

    @Argument(help: "The index to search.") var index: String
    @Option(help: "The session to type into (default: a new one named fzf-PID).") var session: String?
    @Option(help: "The attribute each line shows (default: the record's first text attribute).") var attribute: String?
    @Option(help: "The initial query.") var query: String = ""
    @Option(help: "How many hits to list.") var hitsPerPage: Int = 50
    @Flag(help: "Let fzf select several records (TAB).") var multi = false
    @Option(name: .customLong("print"), help: "Print this attribute of each chosen record (raw text) instead of the record as JSON.")
    var printed: String?
    @Option(help: "The fzf binary.") var fzf: String = "fzf"
    @OptionGroup var daemon: DaemonOptions

    // What fzf runs: one reload per keystroke, and the preview.
    @Option(parsing: .unconditional, help: .hidden) var reloadQuery: String?
    @Option(parsing: .unconditional, help: .hidden) var preview: String?
    // fzf's --listen port, where a reload that listed estimates asks for the exact reload (`--reload-exact`).
    @Option(help: .hidden) var fzfPort: Int?
    @Option(parsing: .unconditional, help: .hidden) var reloadExact: String?

    func run() throws {
        if let preview {
            StandardOutput.writeLine(FzfLines.preview((try? JSONParser.parse(preview)) ?? .string(preview)))
        } else if let reloadQuery {
            try reload(reloadQuery, exact: false)
        } else if let reloadExact {
            try reload(reloadExact, exact: true)
        } else {
            try interactive()
        }
    }

    /// Sets the session's query and prints the lines of the results for it (or newer). Under an fzf
    /// that listens (`--fzf-port`), the first ones: when they hold estimates (a Typesense cluster's
    /// fast answer, "~1,200 hits"), fzf is asked through its --listen port for the exact reload
    /// (`exact`), which replaces them (protocol/methods/resultsUpdated.md); a keystroke typed
    /// meanwhile makes fzf kill that reload. Otherwise nothing could replace an estimate, so the
    /// reload waits for the exact counts.
    private func reload(_ text: String, exact: Bool) throws {
        do {
            let reloader = try FzfReloader(options: daemon, index: index, hitsPerPage: hitsPerPage)
            let result = try reloader.results(session: sessionName, query: text, exact: exact || fzfPort == nil)
            let hits = result["hits"]?.arrayValue ?? []
            let lines = FzfLines(attribute: attribute)
            StandardOutput.write(([FzfLines.header(for: result)] + hits.map(lines.line(for:))).map { $0 + "\n" }.joined())
            if !exact, FzfLines.isEstimate(result), let fzfPort {
                var request = HTTPRequest(method: .post, baseURL: "http://127.0.0.1:\(fzfPort)", target: "/", timeout: 5)
                request.body = Array("reload(\(reloadCommand) --reload-exact {q})".utf8)
                _ = try? URLSessionTransport.shared.send(request)
            }
        } catch {
            StandardOutput.writeLine("-\tquarry: \(error)\t{}")
            throw ExitCode.failure
        }
    }

    /// The command fzf runs for a reload, up to its query argument.
    private var reloadCommand: String {
        let me = shellQuoted(DaemonLauncher.currentExecutable)
        var common = "\(me) fzf \(shellQuoted(index)) --session \(shellQuoted(sessionName)) --hits-per-page \(hitsPerPage)"
        if let attribute { common += " --attribute \(shellQuoted(attribute))" }
        if let socket = daemon.socket { common += " --socket \(shellQuoted(socket))" }
        if let dataDir = daemon.dataDir { common += " --data-dir \(shellQuoted(dataDir))" }
        if let fzfPort { common += " --fzf-port \(fzfPort)" }
        return common
    }

    private func interactive() throws {
        let name = sessionName
        // Start the daemon and the session once, so keystrokes only attach.
        try reportingErrors("fzf") {
            _ = try FzfReloader(options: daemon, index: index, hitsPerPage: hitsPerPage).attach(session: name)
        }
        var listening = self
        listening.session = name
        listening.fzfPort = try FzfProcess.freePort()
        let common = listening.reloadCommand
        let reload = "reload(\(common) --reload-query {q})"
        // The first line of each reload is the header: the real number of hits (`FzfLines.header`).
        // fzf's counter counts the lines listed, at most --hits-per-page: shown only for --multi's selection.
        var arguments = [fzf, "--disabled", "--ansi", "--delimiter", "\t", "--with-nth", "2", "--header-lines", "1",
                         "--listen", String(listening.fzfPort ?? 0),
                         "--info", multi ? "inline" : "hidden",
                         "--query", query, "--prompt", "\(index)> ",
                         "--bind", "start:\(reload)", "--bind", "change:\(reload)",
                         "--preview", "\(common) --preview {3}", "--preview-window", "right,50%,wrap"]
        if multi { arguments.append("--multi") }
        let (status, output) = try FzfProcess.run(arguments)
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let hit = try? JSONParser.parse(String(fields[2])) else { continue }
            if let printed {
                StandardOutput.writeLine(FzfLines.text(at: printed, in: FzfLines.record(hit)))
            } else {
                StandardOutput.writeLine(JSONWriter.string(FzfLines.record(hit)))
            }
        }
        if status != 0 { throw ExitCode(status) }
    }

    private var sessionName: String { session ?? "fzf-\(getpid())" }
}

/// Single-quotes a word for `sh -c`, which is how fzf runs its commands.
func shellQuoted(_ word: String) -> String {
    "'" + word.replacing("'", with: "'\\''") + "'"
}
