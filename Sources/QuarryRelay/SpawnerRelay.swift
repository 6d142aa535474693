#if canImport(Glibc)
import Glibc
#endif
import QuarryJSON
import QuarryServer
import QuarrySync
import QuarryTransport

/// `quarry serve` on stdio when another process owns the data directory: it
/// relays its frontend's messages to the owner's socket and the replies back,
/// so the editor that spawned it sees an ordinary stdio server while sharing
/// the owner's indices and sessions.
///
/// Replies skip the relay: with its first line it hands its stdout to the owner
/// (`HandoffLines`), which writes replies and pushes straight to the frontend
/// and acknowledges each reply on the socket.
///
/// If the owner goes away, the relay connects to the next one (starting a
/// background daemon when no process owns the directory any more), replays the
/// handshake and the sessions its frontend opened, and answers the requests the
/// old owner still owed with an error that says to send them again.
public final class SpawnerRelay: Sendable {
    private struct Link {
        var fd: Int32 = -1
        /// Bumped on every reconnect; a request remembers the link it went out on.
        var generation = 0
        /// The first link's owner writes to the frontend itself. After a reconnect the relay relays
        /// replies again: the new owner's replies to the replayed handshake must not reach the frontend.
        var handoff = Handoff.none
    }

    private enum Handoff { case none, requested, adopted }

    /// How long to look for a new owner before giving up, in seconds.
    static let reconnectWindow = 15.0

    private let socketPath: String
    private let dataDirectory: String
    private let maxMessageSize: Int
    private let startOwner: @Sendable () throws -> Void
    private let log: @Sendable (String) -> Void
    private let ledger = Locked(RelayLedger())
    /// Held while writing to the daemon, so a reconnect never swaps the socket mid-message.
    private let link = Locked(Link())
    private let output = Lock()

    public init(socketPath: String, dataDirectory: String, maxMessageSize: Int = 64 << 20,
         startOwner: @escaping @Sendable () throws -> Void, log: @escaping @Sendable (String) -> Void) {
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        self.maxMessageSize = maxMessageSize
        self.startOwner = startOwner
        self.log = log
    }

    /// Relays until the frontend is done; the exit status `quarry serve` would have had.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        guard let fd = connectToOwner() else {
            log("quarry: cannot reach the daemon that owns \(dataDirectory) at \(socketPath)")
            return 2
        }
        link.withLock { $0.fd = fd }
        log("another process owns \(dataDirectory); forwarding to it at \(socketPath)")
        startInputPump()
        return relayReplies()
    }

    // MARK: Frontend → daemon (a detached thread)

    private func startInputPump() {
        do {
            try DetachedThread.start(name: "quarry-relay-in") { self.pumpInput() }
        } catch {
            log("cannot start the input pump: \(error)")
            link.withLock { _ = shutdown($0.fd, Int32(SHUT_RDWR)) }
        }
    }

    private func pumpInput() {
        var decoder = FrameDecoder(maxMessageSize: maxMessageSize)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            let events = count > 0
                ? buffer.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                : decoder.finish()
            // The frontend's framing, once known, decides the handoff.
            let learned = decoder.framing.flatMap { framing in
                ledger.withLock { ledger -> Framing? in
                    guard ledger.framing == nil else { return nil }
                    ledger.framing = framing
                    return framing
                }
            }
            if let learned { handOffOutput(learned) }
            for event in events {
                switch event {
                case .frame(let payload): forward(payload)
                case .error(let error):
                    guard let message = Server.reply(to: error) else { break }
                    // Once the owner writes to the frontend, only it may: it writes this one for the relay.
                    if link.withLock({ $0.handoff }) == .none { reply(message) } else { forward(HandoffLines.echo(JSONWriter.encode(message))) }
                }
            }
            if count <= 0 { break }
        }
        // Input ended: the daemon sends what it still owes, then closes, which ends the relay.
        ledger.withLock { $0.ending = true }
        link.withLock { _ = shutdown($0.fd, Int32(SHUT_WR)) }
    }

    /// Sends stdout to the owner with the first line, if stdout is a pipe or a socket (what the owner's
    /// loop can poll) and the link is still the first one.
    private func handOffOutput(_ framing: Framing) {
        var info = stat()
        guard getenv("QUARRY_RELAY_REPLIES") == nil, fstat(STDOUT_FILENO, &info) == 0,
              info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK
        else { return }
        link.withLock { link in
            guard link.generation == 0, link.handoff == .none else { return }
            if DescriptorPassing.send(HandoffLines.request(framing: framing) + [10], with: STDOUT_FILENO, over: link.fd) {
                link.handoff = .requested
            }
        }
    }

    private func forward(_ payload: [UInt8]) {
        let message = try? JSONParser.parse(payload)
        let frame = Self.line(payload)
        let deadline = Self.now() + Self.reconnectWindow + 5
        while true {
            let (written, generation) = link.withLock { link in
                if let message { ledger.withLock { $0.recordOutgoing(message, generation: link.generation) } }
                let written = Self.writeAll(link.fd, frame)
                // Not delivered, so not applied: it goes to the next owner instead of failing.
                if !written, let message { ledger.withLock { $0.forget(message) } }
                return (written, link.generation)
            }
            if written { return }
            while link.withLock({ $0.generation }) == generation {
                if Self.now() >= deadline || ledger.withLock({ $0.ending }) { return }
                usleep(2_000)
            }
        }
    }

    // MARK: Daemon → frontend (the calling thread)

    private func relayReplies() -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let (fd, generation) = link.withLock { ($0.fd, $0.generation) }
            var decoder = FrameDecoder(maxMessageSize: Int.max / 2)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                for event in buffer.withUnsafeBytes({ decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }) {
                    if case .frame(let payload) = event { receive(payload, generation: generation) }
                }
            }
            let (ending, shutdownSent) = ledger.withLock { ($0.ending, $0.shutdownSent) }
            if ending { return shutdownSent ? 0 : 1 }
            guard reconnect(after: generation) else {
                for id in ledger.withLock({ $0.orphans(upTo: Int.max) }) { reply(Self.orphaned(id)) }
                log("quarry: no daemon for \(dataDirectory) answers at \(socketPath) any more; stopping")
                return 1
            }
        }
    }

    /// One line from the owner: a reply or push to relay, or, once the owner writes to the frontend
    /// itself, an acknowledgement of a reply it wrote.
    private func receive(_ payload: [UInt8], generation: Int) {
        switch link.withLock({ $0.generation == generation ? $0.handoff : .none }) {
        case .adopted:
            // `{"ack":id}`, or a batch reply's copy, whose ids are read as a relayed batch's would be.
            if let id = HandoffLines.acknowledgedID(payload) {
                _ = ledger.withLock { $0.recordReply(id: id) }
            } else {
                _ = recordReplies(in: payload)
            }
        case .requested where payload == HandoffLines.adoptedLine:
            link.withLock { link in
                link.handoff = .adopted
                // Acknowledgements are only needed if the owner dies: read them in bulk, not one wake-up
                // per reply (the socket's end still wakes the read at once).
                var bulk: Int32 = 16 << 10
                _ = setsockopt(link.fd, SOL_SOCKET, SO_RCVLOWAT, &bulk, socklen_t(MemoryLayout<Int32>.size))
            }
        case .none, .requested:
            deliver(payload)
        }
    }

    private func deliver(_ payload: [UInt8]) {
        if recordReplies(in: payload) { write(payload) }
    }

    /// Notes the replies in a message from the owner; false when it answers only the relay's own requests.
    private func recordReplies(in payload: [UInt8]) -> Bool {
        var shown = true
        if let id = ReplyID.peek(payload) {
            shown = ledger.withLock { $0.recordReply(id: id) }
        } else if let message = try? JSONParser.parse(payload) {
            let replies: [JSON] = if case .array(let items) = message { items } else { [message] }
            for reply in replies where reply["method"] == nil {
                if let id = reply["id"], !id.isNull {
                    shown = ledger.withLock { $0.recordReply(id: JSONWriter.string(id)) } && shown
                }
            }
        }
        return shown
    }

    private func reply(_ message: JSON) {
        write(JSONWriter.encode(message))
    }

    private func write(_ payload: [UInt8]) {
        let framing = ledger.withLock { $0.framing } ?? .contentLength
        output.withLock { _ = Self.writeAll(STDOUT_FILENO, FrameEncoder.encode(payload, as: framing)) }
    }

    static func orphaned(_ id: JSON) -> JSON {
        ["jsonrpc": "2.0", "id": id, "error": [
            "code": -32803,
            "message": "the daemon handling this request stopped before answering; it may or may not have been applied: send it again",
            "data": ["retry": true],
        ]]
    }

    // MARK: Finding the owner

    /// The owner's socket, waiting for an owner that has the lock but does not listen yet.
    private func connectToOwner() -> Int32? {
        let deadline = Self.now() + Self.reconnectWindow
        var started = false
        while true {
            if let fd = try? Forwarder.connect(socketPath, startDaemon: nil, log: log) { return fd }
            if Self.now() >= deadline { return nil }
            if !started && !ownerHoldsTheLock() {
                started = true
                log("no process owns \(dataDirectory) any more; starting a daemon for it")
                do { try startOwner() } catch { log("\(error)") }  // a racing relay's daemon may win; keep trying
            }
            usleep(20_000)
        }
    }

    private func reconnect(after generation: Int) -> Bool {
        log("the daemon at \(socketPath) went away; looking for the next owner of \(dataDirectory)")
        guard let fd = connectToOwner() else { return false }
        link.withLock { link in
            close(link.fd)
            link.fd = fd
            link.generation += 1
            link.handoff = .none
            for message in ledger.withLock({ $0.replay() }) { _ = Self.writeAll(fd, Self.line(JSONWriter.encode(message))) }
        }
        for id in ledger.withLock({ $0.orphans(upTo: generation) }) { reply(Self.orphaned(id)) }
        log("reconnected to \(socketPath)")
        return true
    }

    /// Whether some process holds the data directory's lock (the engine's flock on `<dir>/LOCK`).
    private func ownerHoldsTheLock() -> Bool {
        let fd = open(dataDirectory + "/LOCK", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }

    // MARK: Plumbing

    /// A payload as one NDJSON line, the framing the relay speaks to the daemon whatever its frontend
    /// speaks (measured cheaper per round trip than Content-Length here). A raw CR or LF in JSON text
    /// can only be whitespace between tokens, so a space replaces it.
    static func line(_ payload: [UInt8]) -> [UInt8] {
        var line = payload
        for i in line.indices where line[i] == 10 || line[i] == 13 { line[i] = 32 }
        line.append(10)
        return line
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A daemon that wrote to our stdout left its file description non-blocking.
                    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 1_000)
                    continue
                }
                return false
            }
            offset += written
        }
        return true
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
