import ArgumentParser
import QuarryClient
import QuarryJSON

struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop the shared daemon cleanly (every client is disconnected).")

    @Option(help: "The daemon's socket.")
    var socket: String?

    func run() throws {
        let path = Locations.socketPath(socket)
        let connection: DaemonConnection
        do {
            connection = try DaemonConnection(socketPath: path)
        } catch {
            print("no daemon is running at \(path)")
            return
        }
        do {
            try connection.initialize(clientName: "quarry stop")
            _ = try connection.request("stopServer", params: [:])
            print("stopped the daemon at \(path)")
        } catch {
            Log.standardError.write("quarry stop: \(error)")
            throw ExitCode.failure
        }
    }
}
