/// The bytes that surround a payload on the wire, per framing. The payload
/// itself is never copied into them, so one payload can go to many peers.
public enum FrameEncoder {
    public static func prefix(for framing: Framing, payloadCount: Int) -> [UInt8] {
        switch framing {
        case .contentLength: Array("Content-Length: \(payloadCount)\r\n\r\n".utf8)
        case .newlineDelimited: []
        }
    }

    public static func suffix(for framing: Framing) -> [UInt8] {
        switch framing {
        case .contentLength: []
        case .newlineDelimited: [10]
        }
    }

    /// Prefix, payload and suffix in one array; for tests and small clients.
    public static func encode(_ payload: [UInt8], as framing: Framing) -> [UInt8] {
        prefix(for: framing, payloadCount: payload.count) + payload + suffix(for: framing)
    }
}
