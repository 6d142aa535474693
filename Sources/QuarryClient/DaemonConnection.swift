#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON
import QuarryProtocol

/// A blocking JSON-RPC client on the daemon's Unix socket, for the CLI's own
/// commands. Newline-delimited framing; one request at a time; notifications
/// that arrive meanwhile go to the caller's handler.
public final class DaemonConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 1
    /// The signal that interrupted a request of this connection, if one did (`request(interruptible:)`).
    public private(set) var interruption: Int32?

    public init(socketPath: String) throws(ClientError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw .cannotConnect(path: socketPath, reason: "the path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: socketPath, reason: String(cString: strerror(errno))) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .cannotConnect(path: socketPath, reason: reason)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends `initialize` and `initialized`; returns the server's capabilities.
    @discardableResult
    public func initialize(clientName: String, positionEncodings: [String] = ["utf-8"]) throws(ClientError) -> JSON {
        let result = try request("initialize", params: [
            "clientInfo": ["name": .string(clientName)],
            "capabilities": ["general": ["positionEncodings": .array(positionEncodings.map(JSON.string))]],
        ])
        try notify("initialized", params: [:])
        return result
    }

    public func notify(_ method: String, params: JSON) throws(ClientError) {
        try write(OutgoingMessage.notification(method, params: params))
    }

    /// Sends a request and waits for its reply, passing notifications
    /// (method, params) that arrive first to `onNotification`.
    ///
    /// `interruptible` (after `Interrupts.catchTerminationSignals()`): a SIGINT or SIGTERM while waiting
    /// sends `$/cancelRequest` and goes on waiting for the reply, which is `-32800` once the daemon
    /// has undone the request, or its result if it finished first; `interruption` says it happened.
    /// A second signal stops waiting (`ClientError.interrupted`); the daemon cancels the request of a
    /// client that is gone.
    public func request(_ method: String, params: JSON, interruptible: Bool = false,
                        onNotification: (String, JSON) -> Void = { _, _ in }) throws(ClientError) -> JSON {
        let id = nextID
        nextID += 1
        try write(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        var cancelSent = false
        while true {
            let message: JSON
            if interruptible {
                guard let next = try next(until: nil, orInterrupt: true) else {
                    if cancelSent { throw .interrupted(signal: interruption ?? SIGINT) }
                    try notify("$/cancelRequest", params: ["id": .int(id)])
                    cancelSent = true
                    continue
                }
                message = next
            } else {
                message = try readMessage()
            }
            if let method = message["method"]?.stringValue {
                onNotification(method, message["params"] ?? .null)
                continue
            }
            guard message["id"] == .int(id) else { continue }
            if let error = message["error"] {
                throw .rpc(ResponseError(code: ErrorCode(rawValue: error["code"]?.intValue ?? ErrorCode.internalError.rawValue),
                                         message: error["message"]?.stringValue ?? "unknown error", data: error["data"]))
            }
            return message["result"] ?? .null
        }
    }

    /// The next message from the daemon, whatever it is.
    public func readMessage() throws(ClientError) -> JSON {
        // With neither a deadline nor interrupts, next(until:orInterrupt:) never returns nil.
        while true { if let message = try next(until: nil, orInterrupt: false) { return message } }
    }

    /// The next message from the daemon, or nil when none is complete within
    /// `timeout` seconds (a client waiting for a push must not hang forever).
    public func readMessage(timeout: Double) throws(ClientError) -> JSON? {
        try next(until: Self.monotonicSeconds() + max(0, timeout), orInterrupt: false)
    }

    /// The next message; nil once `deadline` passes, or when `orInterrupt` and a termination
    /// signal was caught first.
    private func next(until deadline: Double?, orInterrupt: Bool) throws(ClientError) -> JSON? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
                do {
                    return try JSONParser.parse(line)
                } catch {
                    throw .connectionLost("the daemon sent invalid JSON: \(error)")
                }
            }
            if deadline != nil || orInterrupt {
                if orInterrupt, let signal = Interrupts.take() {
                    interruption = signal
                    return nil
                }
                var milliseconds: Int32 = -1
                if let deadline {
                    let remaining = deadline - Self.monotonicSeconds()
                    guard remaining > 0 else { return nil }
                    milliseconds = Int32(min(remaining * 1000, 60_000).rounded(.up))
                }
                var ready = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                if orInterrupt { ready.append(pollfd(fd: Interrupts.pipe.read, events: Int16(POLLIN), revents: 0)) }
                if poll(&ready, nfds_t(ready.count), milliseconds) < 0 && errno != EINTR {
                    throw .connectionLost(String(cString: strerror(errno)))
                }
                guard ready[0].revents != 0 else { continue }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .connectionLost(count == 0 ? "the daemon closed the connection" : String(cString: strerror(errno))) }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func write(_ message: JSON) throws(ClientError) {
        var bytes = JSONWriter.encode(message)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .connectionLost(String(cString: strerror(errno))) }
            offset += written
        }
    }
}
