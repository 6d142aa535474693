import ArgumentParser
import QuarryJSON
#if canImport(Glibc)
import Glibc
#endif

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a JSON array, NDJSON or CSV file into an index, all or nothing.",
        discussion: """
            The daemon streams the file; a malformed record aborts the import with its position and leaves the index as it \
            was, unless --skip-invalid. Ctrl-C cancels the import: the index is left as it was, and the command exits 130.
            """)

    @Argument(help: "The index to import into (created if needed).") var index: String
    @Argument(help: "The file: .json (an array of records), .ndjson/.jsonl, or .csv.") var file: String
    @Option(help: "A JSON file of index settings to apply first (Algolia's export format).") var settings: String?
    @Option(help: "json, ndjson or csv (default: from the file's extension).") var format: String?
    @Flag(help: "Skip malformed records instead of aborting; report how many.") var skipInvalid = false
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try reportingErrors("import") {
            var params: JSONObject = [
                "index": .string(index), "path": .string(absolutePath(file)),
                "skipInvalid": .bool(skipInvalid), "workDoneToken": "import",
            ]
            if let format { params["format"] = .string(format) }
            let connection = try daemon.connect(clientName: "quarry import")
            if let settings {
                let (kept, note) = try ForeignReplicas.leftOut(of: readJSONFile(settings), importingInto: index, connection: connection)
                params["settings"] = kept
                if let note { Log.standardError.write("quarry import: note: \(note)") }
            }
            let bar = ProgressBar(interactive: isatty(2) != 0)
            let reply = try interruptibleRequest(
                connection, "importFile", params: .object(params), command: "import",
                undone: "the import was cancelled and rolled back; index '\(index)' is unchanged"
            ) { method, params in
                if method == "$/progress" { bar.update(params["value"] ?? .null) }
            }
            bar.finish()
            let imported = reply["imported"]?.intValue ?? 0
            let skipped = reply["skipped"]?.intValue ?? 0
            var summary = "imported \(imported) records into '\(index)'"
            if skipped > 0 { summary += ", skipped \(skipped) invalid" }
            print(summary)
            for reason in reply["skippedReasons"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                Log.standardError.write("  skipped: \(reason)")
            }
            if let signal = connection.interruption {
                Log.standardError.write("quarry import: interrupted after the import had finished; it stands")
                throw ExitCode(128 + signal)
            }
        }
    }
}
