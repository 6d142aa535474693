import ArgumentParser
import QuarryJSON
#if canImport(Glibc)
import Glibc
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every record of an index (optionally filtered) as NDJSON or a JSON array.",
        discussion: """
            Pages through the index with `browse`, so the output is not capped by paginationLimitedTo and \
            memory stays flat. `quarry import` of the output (with --settings) recreates the index; into \
            another name beside the original, it leaves out the replicas the settings name, which stay the original's.
            """)

    @Argument(help: "The index to export.") var index: String
    @Option(help: "Only the records matching this filter expression.") var filters: String?
    @Option(help: "Only the records matching this query (typo-tolerant, as search).") var query: String?
    @Option(help: "ndjson (one record per line, the default) or json (an array).") var format: Format = .ndjson
    @Option(name: .shortAndLong, help: "Write to this file (replaced only when the export succeeds) instead of stdout.")
    var output: String?
    @Option(help: "Also write the index settings to this file, as `quarry import --settings` reads them.") var settings: String?
    @OptionGroup var daemon: DaemonOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case ndjson, json }

    func run() throws {
        try reportingErrors("export") {
            let connection = try daemon.connect(clientName: "quarry export")
            if let settings {
                let current = try connection.request("getSettings", params: ["index": .string(index)])
                let file = try ExportFile(path: settings)
                try file.write(Array(JSONWriter.encode(current)) + [0x0A])
                try file.commit()
            }
            let out = try output.map { try ExportFile(path: $0) } ?? ExportFile.standardOutput()
            var params: JSONObject = ["index": .string(index)]
            if let filters { params["filters"] = .string(filters) }
            if let query { params["query"] = .string(query) }
            let bar = ProgressBar(interactive: isatty(2) != 0, label: "export")
            var written = 0
            let undone = output.map { "nothing was written to \($0)" } ?? "the output stops here, incomplete"
            var buffer: [UInt8] = format == .json ? [0x5B] : []
            while true {
                let page = try interruptibleRequest(connection, "browse", params: .object(params), command: "export", undone: undone)
                if let signal = connection.interruption {  // between two pages
                    Log.standardError.write(afterProgress + "quarry export: interrupted; \(undone)")
                    throw ExitCode(128 + signal)
                }
                for hit in page["hits"]?.arrayValue ?? [] {
                    if format == .json && written > 0 { buffer.append(0x2C) }
                    if format == .json { buffer.append(0x0A) }
                    buffer.append(contentsOf: JSONWriter.encode(hit))
                    if format == .ndjson { buffer.append(0x0A) }
                    written += 1
                }
                try out.write(buffer)
                buffer.removeAll(keepingCapacity: true)
                let total = page["nbHits"]?.intValue ?? written
                let percentage = total > 0 ? min(100, written * 100 / total) : 100
                bar.update(["percentage": JSON(percentage), "records": JSON(written)])
                guard let cursor = page["cursor"]?.stringValue else { break }
                params = ["index": .string(index), "cursor": .string(cursor)]
            }
            if format == .json { try out.write(written > 0 ? [0x0A, 0x5D, 0x0A] : [0x5D, 0x0A]) }
            try out.commit()
            bar.finish()
            if output != nil || isatty(1) == 0 {
                Log.standardError.write("exported \(written) records from '\(index)'")
            }
        }
    }
}
