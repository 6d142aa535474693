#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import QuarryBackend
import QuarryEngine
import QuarryJSON
import QuarryProtocol
import QuarryServer
import QuarrySync
import QuarryTransport

/// Whole requests through the server's dispatch, in process, over a real
/// engine in a scratch directory. Each input is one connection: `initialize`,
/// then the input's lines as messages. The oracles:
/// - every message gets exactly the replies JSON-RPC owes it (one per request
///   or batch, none for a notification), within 10 s: no hang, no double reply;
/// - every reply is a JSON-RPC 2.0 response naming an id that was asked;
/// - no reply is -32603: on a healthy disk, an internal error is a bug.
enum DispatchFuzzing {
    private static let harness = DispatchHarness()

    static func run(_ data: [UInt8]) throws(OracleViolation) {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map(Array.init)
            .filter { !$0.allSatisfy(\.isJSONWhitespaceByte) }
            .filter { !endsTheDaemon($0) }
        try harness.converse(lines)
    }

    /// `shutdown` and `exit` end a connection's or the daemon's life, which the
    /// harness keeps for the next input.
    private static func endsTheDaemon(_ line: [UInt8]) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        return text.contains("shutdown") || text.contains("exit")
    }
}

private final class DispatchHarness: Sendable {
    private let sink = CollectingSink()
    private let server: Server
    private let nextConnection = Locked<UInt64>(1)
    private let maxNestingDepth: Int

    init() {
        var template = Array("/tmp/quarry-fuzz-dispatch-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
        }
        guard let directory, let engine = try? Engine(directory: directory, log: { _ in }) else {
            fatalError("the dispatch fuzzer cannot create its scratch engine")
        }
        let configuration = ServerConfiguration()
        maxNestingDepth = configuration.maxNestingDepth
        server = Server(configuration: configuration, backend: engine, sink: sink, log: { _ in })
    }

    func converse(_ lines: [[UInt8]]) throws(OracleViolation) {
        let connection = nextConnection.withLock { next in
            defer { next += 1 }
            return ConnectionID(rawValue: next)
        }
        server.connectionOpened(connection, kind: .socket)
        defer { server.connectionClosed(connection) }
        let initialize = #"{"jsonrpc":"2.0","id":"fuzz-initialize","method":"initialize","params":{}}"#
        var owed = 1
        var askedIDs: Set<JSON> = [.string("fuzz-initialize")]
        server.received(Array(initialize.utf8), on: connection)
        for line in lines {
            let (replies, ids) = owedReplies(line)
            owed += replies
            askedIDs.formUnion(ids)
            server.received(line, on: connection)
        }
        let replies = sink.waitForReplies(owed, on: connection, timeout: 10)
        // A reply that comes after this is one too many; the next input reports it.
        let late = sink.finish(connection)
        try expect(late.isEmpty, "replies after all that were owed: \(late)")
        try expect(replies.count == owed, "expected \(owed) replies, got \(replies.count): \(replies.map(JSONWriter.string))")
        for reply in replies.flatMap({ $0.arrayValue ?? [$0] }) {
            try check(reply, askedIDs: askedIDs)
        }
    }

    /// What JSON-RPC owes a line, and the ids it may be answered with.
    private func owedReplies(_ line: [UInt8]) -> (Int, Set<JSON>) {
        guard let json = try? JSONParser.parse(line, maxDepth: maxNestingDepth) else { return (1, [.null]) }
        guard case .array(let elements) = json else {
            return Self.isAnswered(json) ? (1, Self.ids(json)) : (0, [])
        }
        guard !elements.isEmpty else { return (1, [.null]) }
        let answered = elements.filter(Self.isAnswered)
        return answered.isEmpty ? (0, []) : (1, answered.reduce(into: Set<JSON>()) { $0.formUnion(Self.ids($1)) })
    }

    private static func isAnswered(_ element: JSON) -> Bool {
        switch IncomingMessage(json: element) {
        case .notification, .response: false
        case .request, .invalid: true
        }
    }

    private static func ids(_ element: JSON) -> Set<JSON> {
        [.null, element.objectValue?["id"] ?? .null]
    }

    private func check(_ reply: JSON, askedIDs: Set<JSON>) throws(OracleViolation) {
        let text = JSONWriter.string(reply)
        guard let object = reply.objectValue else { throw OracleViolation("a reply that is not an object: \(text)") }
        try expect(object["jsonrpc"] == .string("2.0"), "a reply without jsonrpc 2.0: \(text)")
        try expect(askedIDs.contains(object["id"] ?? .string("missing")), "a reply to an id nobody asked: \(text)")
        try expect((object["result"] == nil) != (object["error"] == nil), "a reply needs exactly one of result and error: \(text)")
        if let code = object["error"]?.objectValue?["code"] {
            try expect(code != .int(-32603), "an internal error: \(text)")
        }
    }
}

/// Keeps the replies (not the pushes) each connection was sent, and any that
/// came for a connection whose replies were all counted.
private final class CollectingSink: MessageSink {
    private struct State {
        var replies: [ConnectionID: [JSON]] = [:]
        var finished: Set<ConnectionID> = []
        var late: [String] = []
    }

    private let state = Locked(State())
    private let arrived = DispatchSemaphore(value: 0)

    func send(_ payload: [UInt8], to connection: ConnectionID, coalescingKey: String?) {
        let message = (try? JSONParser.parse(payload)) ?? .string("<unparsable: \(String(decoding: payload, as: UTF8.self))>")
        // A notification (a push such as resultsUpdated) has a method; replies do not.
        if message.objectValue?["method"] != nil { return }
        state.withLock { state in
            if state.finished.contains(connection) {
                state.late.append("\(connection): \(JSONWriter.string(message))")
            } else {
                state.replies[connection, default: []].append(message)
            }
        }
        arrived.signal()
    }

    /// Stops collecting for `connection`; returns the late replies seen so far.
    func finish(_ connection: ConnectionID) -> [String] {
        state.withLock { state in
            state.finished.insert(connection)
            state.replies[connection] = nil
            defer { state.late = [] }
            return state.late
        }
    }

    func close(_ connection: ConnectionID) {}

    func stop() {}

    func waitForReplies(_ count: Int, on connection: ConnectionID, timeout: Double) -> [JSON] {
        let deadline = DispatchTime.now() + timeout
        while true {
            let current = state.withLock { $0.replies[connection] ?? [] }
            if current.count >= count || arrived.wait(timeout: deadline) == .timedOut {
                return state.withLock { $0.replies[connection] ?? [] }
            }
        }
    }
}

extension UInt8 {
    fileprivate var isJSONWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
