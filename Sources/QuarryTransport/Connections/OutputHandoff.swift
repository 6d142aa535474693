import CTransportShims
import Glibc

/// The wire bits of a relay handing its stdout to the daemon it relays to.
///
/// A `quarry serve` whose data directory another process owns relays its
/// frontend's requests to the owner's socket. Replies need not come back the
/// same way: the relay sends its stdout descriptor (`SCM_RIGHTS`) with its
/// first line, and the owner writes replies and pushes straight to the frontend,
/// which saves the relay a wake-up and two copies per reply. On the socket the
/// owner then writes only acknowledgements: one line per reply it has written,
/// so that if it dies, the relay knows which requests are still owed.
public enum OutputHandoff {
    private static let requestPrefix = Array(#"{"jsonrpc":"2.0","method":"$/quarry/adoptOutput","params":{"framing":""#.utf8)
    private static let echoPrefix = Array(#"{"jsonrpc":"2.0","method":"$/quarry/echo","params":"#.utf8)
    private static let ackPrefix = Array(#"{"ack":"#.utf8)

    /// The owner's line on the socket once its replies go to the handed descriptor.
    public static let adopted = Array(#"{"adopted":true}"#.utf8)

    /// The relay's first line, sent with its stdout attached; `framing` is its frontend's.
    public static func request(framing: Framing) -> [UInt8] {
        requestPrefix + Array((framing == .contentLength ? "contentLength" : "newlineDelimited").utf8) + Array(#""}}"#.utf8)
    }

    /// The frontend's framing if `payload` is a handoff request.
    static func requestedFraming(_ payload: [UInt8]) -> Framing? {
        guard payload.starts(with: requestPrefix) else { return nil }
        let rest = payload[requestPrefix.count...]
        if rest.elementsEqual(Array(#"contentLength"}}"#.utf8)) { return .contentLength }
        if rest.elementsEqual(Array(#"newlineDelimited"}}"#.utf8)) { return .newlineDelimited }
        return nil
    }

    /// Asks the owner to write `message` to the frontend: once the owner writes there, the relay must not,
    /// or the two could interleave inside a frame.
    public static func echo(_ message: [UInt8]) -> [UInt8] {
        echoPrefix + message + [UInt8(ascii: "}")]
    }

    /// The message to write if `payload` is an echo request.
    static func echoed(_ payload: [UInt8]) -> ArraySlice<UInt8>? {
        guard payload.starts(with: echoPrefix), payload.last == UInt8(ascii: "}") else { return nil }
        return payload[echoPrefix.count..<(payload.count - 1)]
    }

    /// What the owner writes on the socket once `reply` has gone to the frontend: `{"ack":<id>}`
    /// for a reply, the batch itself for a batch (the relay reads its ids), nothing for a push.
    static func acknowledgement(for reply: [UInt8]) -> [UInt8]? {
        if let id = ReplyID.peek(reply) { return ackPrefix + Array(id.utf8) + [UInt8(ascii: "}"), 10] }
        if reply.first == UInt8(ascii: "[") { return reply.map { $0 == 10 || $0 == 13 ? 32 : $0 } + [10] }
        return nil
    }

    /// The id text of an `{"ack":<id>}` line, nil for anything else.
    public static func acknowledgedID(_ line: [UInt8]) -> String? {
        guard line.starts(with: ackPrefix), line.count > ackPrefix.count + 1, line.last == UInt8(ascii: "}") else { return nil }
        return String(decoding: line[ackPrefix.count..<(line.count - 1)], as: UTF8.self)
    }

    /// Sends `line` over `socket` with `descriptor` attached. False when the socket refused it.
    public static func send(_ line: [UInt8], with descriptor: Int32, over socket: Int32) -> Bool {
        line.withUnsafeBytes { qt_send_with_descriptor(socket, $0.baseAddress, $0.count, descriptor) } == line.count
    }
}
