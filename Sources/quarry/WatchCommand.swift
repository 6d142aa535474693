import ArgumentParser
import QuarryClient
import QuarryJSON

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Attach to a session and print each of its stateChanged and resultsUpdated as one JSON line.",
        discussion: """
            Each line is the notification's params with its method first:
              {"method":"stateChanged","session":…,"stateVersion":…,"state":{…}}
              {"method":"resultsUpdated","session":…,"stateVersion":…,"results":[…]}
            The first line is the session's state when watching starts. The session is created if it \
            does not exist (with a hits searcher on --index, if given). Example:
              quarry watch docs --only results | jq -r '.results[0].hits[].objectID'
            """)

    enum Only: String, ExpressibleByArgument, CaseIterable { case results, state }

    @Argument(help: "The session's name.") var session: String
    @Option(help: "Print only these notifications: results or state.") var only: Only?
    @Option(help: "If the session is new, give it a hits searcher on this index.") var index: String?
    @Option(help: "Exit after printing this many lines.") var count: Int?
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        var printed = Printed()
        try reportingErrors("watch") {
            let connection = try daemon.connect(clientName: "quarry watch")
            var params: JSONObject = ["session": .string(session)]
            if let index { params["searchers"] = [["type": "hits", "index": .string(index)]] }
            var pushed: [JSON] = []
            let opened = try connection.request("openSession", params: .object(params)) { method, params in
                pushed.append(["method": .string(method), "params": params])
            }
            if emit("stateChanged", ["session": .string(session), "stateVersion": opened["stateVersion"] ?? 0,
                                     "state": opened["state"] ?? .null], &printed) { return }
            for message in pushed {
                if emit(message["method"]?.stringValue ?? "", message["params"] ?? .null, &printed) { return }
            }
            while true {
                let message = try connection.readMessage()
                guard let method = message["method"]?.stringValue else { continue }
                if emit(method, message["params"] ?? .null, &printed) { return }
            }
        }
    }

    /// Lines out so far, and the newest version printed per method (the
    /// opening snapshot and a push made while opening can describe one version).
    struct Printed {
        var lines = 0
        var versions: [String: Int] = [:]
    }

    /// Prints one notification if it is about this session, wanted and new; true once `--count` lines are out.
    private func emit(_ method: String, _ params: JSON, _ printed: inout Printed) -> Bool {
        guard case .object(let fields) = params, fields["session"]?.stringValue == session else { return false }
        switch (method, only) {
        case ("stateChanged", nil), ("stateChanged", .state?), ("resultsUpdated", nil), ("resultsUpdated", .results?): break
        default: return false
        }
        let version = fields["stateVersion"]?.intValue ?? 0
        if let last = printed.versions[method], version <= last { return false }
        printed.versions[method] = version
        var line: JSONObject = ["method": .string(method)]
        line.merge(fields) { old, _ in old }
        StandardOutput.writeLine(JSONWriter.string(.object(line)))
        printed.lines += 1
        return count.map { printed.lines >= $0 } ?? false
    }
}
