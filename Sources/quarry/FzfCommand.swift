import ArgumentParser
import QuarryClient
import QuarryJSON
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

    func run() throws {
        if let preview {
            StandardOutput.writeLine(FzfLines.preview((try? JSONParser.parse(preview)) ?? .string(preview)))
        } else if let reloadQuery {
            try reload(reloadQuery)
        } else {
            try interactive()
        }
    }

    /// Sets the session's query and prints the lines of the results for it (or newer), once their
    /// counts are exact. On a Typesense cluster a session answers first with estimates and then
    /// with the exact counts (protocol/methods/resultsUpdated.md); fzf keeps a reload's header, and
    /// only its --listen endpoint could make it reload again, which fzf 0.38 serves without
    /// authentication (clients/shell/README.md), so the reload waits for the exact counts instead. An estimate is
    /// shown ("~1,200 hits") only when another frontend's change skipped its completion.
    private func reload(_ text: String) throws {
        do {
            let reloader = try FzfReloader(options: daemon, index: index, hitsPerPage: hitsPerPage)
            let result = try reloader.results(session: sessionName, query: text, exact: true)
            let hits = result["hits"]?.arrayValue ?? []
            let lines = FzfLines(attribute: attribute)
            StandardOutput.write(([FzfLines.header(for: result)] + hits.map(lines.line(for:))).map { $0 + "\n" }.joined())
        } catch {
            StandardOutput.writeLine("-\tquarry: \(error)\t{}")
            throw ExitCode.failure
        }
    }

    private func interactive() throws {
        let name = sessionName
        // Start the daemon and the session once, so keystrokes only attach.
        try reportingErrors("fzf") {
            _ = try FzfReloader(options: daemon, index: index, hitsPerPage: hitsPerPage).attach(session: name)
        }
        let me = shellQuoted(DaemonLauncher.currentExecutable)
        var common = "\(me) fzf \(shellQuoted(index)) --session \(shellQuoted(name)) --hits-per-page \(hitsPerPage)"
        if let attribute { common += " --attribute \(shellQuoted(attribute))" }
        if let socket = daemon.socket { common += " --socket \(shellQuoted(socket))" }
        if let dataDir = daemon.dataDir { common += " --data-dir \(shellQuoted(dataDir))" }
        let reload = "reload(\(common) --reload-query {q})"
        // The first line of each reload is the header: the real number of hits (`FzfLines.header`).
        // fzf's counter counts the lines listed, at most --hits-per-page: shown only for --multi's selection.
        var arguments = [fzf, "--disabled", "--ansi", "--delimiter", "\t", "--with-nth", "2", "--header-lines", "1",
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
