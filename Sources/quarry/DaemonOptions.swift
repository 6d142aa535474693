import ArgumentParser
import QuarryClient
import QuarryJSON

/// The options every client command shares, and the connection they open:
/// to the shared daemon, started in the background if none answers.
struct DaemonOptions: ParsableArguments {
    @Option(help: "The daemon's socket (default: $QUARRY_SOCK, else $XDG_RUNTIME_DIR/quarry/quarry.sock).")
    var socket: String?

    @Option(help: "Use the daemon that owns this data directory (at <dir>/quarry.sock), starting one if none does.")
    var dataDir: String?

    /// The socket these options name: --socket, else the owner of --data-dir, else the default.
    var socketPath: String {
        if socket == nil, let dataDir { return Locations.ownerSocketPath(dataDirectory: absolutePath(dataDir)) }
        return Locations.socketPath(socket)
    }

    func connect(clientName: String, positionEncodings: [String] = ["utf-8"]) throws -> DaemonConnection {
        let path = socketPath
        let connection: DaemonConnection
        do {
            connection = try DaemonConnection(socketPath: path)
        } catch {
            try DaemonStarter(socketPath: path, dataDirectory: dataDir).start()
            connection = try DaemonConnection(socketPath: path)
        }
        try connection.initialize(clientName: clientName, positionEncodings: positionEncodings)
        return connection
    }
}

/// Runs a client command body, turning its errors into a line on stderr and exit code 1: the
/// message for a person, or with `json` a daemon's error object (code, message, data) for scripts.
func reportingErrors(_ command: String, json: Bool = false, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch ClientError.rpc(let error) where json {
        Log.standardError.write(JSONWriter.string(error.json))
        throw ExitCode.failure
    } catch {
        Log.standardError.write("quarry \(command): \(error)")
        throw ExitCode.failure
    }
}

/// Reads a whole JSON file given on the command line (settings are small).
func readJSONFile(_ path: String) throws -> JSON {
    guard let file = fopen(path, "rb") else { throw ValidationError("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: chunk[..<count])
    }
    do {
        return try JSONParser.parse(bytes)
    } catch {
        throw ValidationError("\(path) is not valid JSON: \(error)")
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// An absolute form of a path given relative to the current directory.
func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let found = buffer.withUnsafeMutableBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { getcwd($0.baseAddress, $0.count) != nil }
    }
    guard found, let end = buffer.firstIndex(of: 0) else { return path }
    return String(decoding: buffer[..<end], as: UTF8.self) + "/" + path
}
