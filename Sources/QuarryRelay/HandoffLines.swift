import QuarryTransport

/// The lines of a relay handing its stdout to the daemon it relays to, in the
/// relay's JSON-RPC dialect (the transport moves them: `OutputHandoffLines`).
///
/// The relay sends its stdout descriptor (`SCM_RIGHTS`) with its first line,
/// and the owner writes replies and pushes straight to the frontend, which
/// saves the relay a wake-up and two copies per reply. On the socket the
/// owner then writes only acknowledgements: one line per reply it has written,
/// so that if it dies, the relay knows which requests are still owed.
public struct HandoffLines: OutputHandoffLines {
    private static let requestPrefix = Array(#"{"jsonrpc":"2.0","method":"$/quarry/adoptOutput","params":{"framing":""#.utf8)
    private static let echoPrefix = Array(#"{"jsonrpc":"2.0","method":"$/quarry/echo","params":"#.utf8)
    private static let ackPrefix = Array(#"{"ack":"#.utf8)
    static let adoptedLine = Array(#"{"adopted":true}"#.utf8)

    public init() {}

    /// The owner's line on the socket once its replies go to the handed descriptor.
    public var adopted: [UInt8] { Self.adoptedLine }

    /// The relay's first line, sent with its stdout attached; `framing` is its frontend's.
    static func request(framing: Framing) -> [UInt8] {
        requestPrefix + Array((framing == .contentLength ? "contentLength" : "newlineDelimited").utf8) + Array(#""}}"#.utf8)
    }

    public func requestedFraming(_ payload: [UInt8]) -> Framing? {
        guard payload.starts(with: Self.requestPrefix) else { return nil }
        let rest = payload[Self.requestPrefix.count...]
        if rest.elementsEqual(Array(#"contentLength"}}"#.utf8)) { return .contentLength }
        if rest.elementsEqual(Array(#"newlineDelimited"}}"#.utf8)) { return .newlineDelimited }
        return nil
    }

    /// Asks the owner to write `message` to the frontend: once the owner writes there, the relay must not,
    /// or the two could interleave inside a frame.
    static func echo(_ message: [UInt8]) -> [UInt8] {
        echoPrefix + message + [UInt8(ascii: "}")]
    }

    public func echoed(_ payload: [UInt8]) -> ArraySlice<UInt8>? {
        guard payload.starts(with: Self.echoPrefix), payload.last == UInt8(ascii: "}") else { return nil }
        return payload[Self.echoPrefix.count..<(payload.count - 1)]
    }

    /// `{"ack":<id>}` for a reply, the batch itself for a batch (the relay reads its ids), nothing for a push.
    public func acknowledgement(for reply: [UInt8]) -> [UInt8]? {
        if let id = ReplyID.peek(reply) { return Self.ackPrefix + Array(id.utf8) + [UInt8(ascii: "}"), 10] }
        if reply.first == UInt8(ascii: "[") { return reply.map { $0 == 10 || $0 == 13 ? 32 : $0 } + [10] }
        return nil
    }

    /// The id text of an `{"ack":<id>}` line, nil for anything else.
    static func acknowledgedID(_ line: [UInt8]) -> String? {
        guard line.starts(with: ackPrefix), line.count > ackPrefix.count + 1, line.last == UInt8(ascii: "}") else { return nil }
        return String(decoding: line[ackPrefix.count..<(line.count - 1)], as: UTF8.self)
    }
}
