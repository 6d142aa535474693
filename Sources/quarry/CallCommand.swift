import ArgumentParser
import QuarryClient
import QuarryJSON
import QuarryProtocol

struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Send one JSON-RPC request to the shared daemon and print its result as JSON.",
        discussion: """
            The result goes to stdout as one line of JSON. A JSON-RPC error goes to stderr as its \
            error object ({"code", "message", "data"}) and the exit code is 1; a daemon that cannot \
            be reached exits with 2. Examples:
              quarry call listIndices | jq -r '.items[].name'
              quarry call search '{"index":"talks","query":"ocean"}' | jq '.nbHits'
              echo '{"index":"talks"}' | quarry call getSettings -
            """)

    @Argument(help: "The method, e.g. search, setQuery, listIndices.") var method: String
    @Argument(help: "Its params as a JSON object, or - to read them from stdin (default: {}).") var params: String?
    @Flag(help: "Also print the notifications that arrive before the reply to stderr, one JSON line each.")
    var notifications = false
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        let parameters = try parsedParams()
        let connection: DaemonConnection
        do {
            connection = try daemon.connect(clientName: "quarry call")
        } catch {
            Log.standardError.write("quarry call: \(error)")
            throw ExitCode(2)
        }
        do {
            let result = try interruptibleRequest(
                connection, method, params: parameters, command: "call",
                undone: "'\(method)' was cancelled (a cancelled write changed nothing)"
            ) { method, params in
                guard notifications else { return }
                Log.standardError.write(JSONWriter.string(["method": .string(method), "params": params]))
            }
            StandardOutput.writeLine(JSONWriter.string(result))
            if let signal = connection.interruption {
                Log.standardError.write("quarry call: interrupted after '\(method)' had finished; its result stands")
                throw ExitCode(128 + signal)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch ClientError.rpc(let error) {
            Log.standardError.write(JSONWriter.string(error.json))
            throw ExitCode.failure
        } catch {
            Log.standardError.write("quarry call: \(error)")
            throw ExitCode(2)
        }
    }

    private func parsedParams() throws -> JSON {
        guard let params else { return .object([:]) }
        let parsed: JSON
        do {
            parsed = params == "-" ? try JSONParser.parse(StandardOutput.readStandardInput()) : try JSONParser.parse(params)
        } catch {
            throw ValidationError("params are not valid JSON: \(error)")
        }
        guard case .object = parsed else { throw ValidationError("params must be a JSON object") }
        return parsed
    }
}
