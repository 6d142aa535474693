import ArgumentParser
import QuarryJSON

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Print an index's settings, or change them from a JSON file.")

    @Argument(help: "The index.") var index: String
    @Option(help: "A JSON file of settings to apply (Algolia's export format); only its keys change.")
    var set: String?
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        try reportingErrors("settings") {
            let connection = try daemon.connect(clientName: "quarry settings")
            if let set {
                guard case .object(let settings) = try readJSONFile(set) else {
                    throw ValidationError("\(set) must hold a JSON object of settings")
                }
                let reply = try connection.request("setSettings", params: ["index": .string(index), "settings": .object(settings)])
                let unsupported = reply["unsupported"]?.arrayValue?.compactMap(\.stringValue) ?? []
                if !unsupported.isEmpty {
                    Log.standardError.write("stored but not acted on: \(unsupported.joined(separator: ", "))")
                }
            }
            print(JSONWriter.string(try connection.request("getSettings", params: ["index": .string(index)])))
        }
    }
}
