/// How messages are delimited on one connection.
///
/// Detected from the first non-whitespace byte a peer sends: `{` or `[` means
/// newline-delimited JSON, anything else the LSP base protocol's headers.
public enum Framing: Sendable, Equatable {
    /// `Content-Length: N\r\n` (optional `Content-Type`), `\r\n`, then N bytes.
    case contentLength
    /// One JSON text per line; `\r\n` tolerated, blank lines ignored.
    case newlineDelimited

    /// The framing a peer speaks, judged from the first byte that is not whitespace.
    static func detect(firstByte: UInt8) -> Framing {
        firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") ? .newlineDelimited : .contentLength
    }
}

/// What went wrong with one inbound frame. The server turns it into a JSON-RPC
/// error reply; in every case the connection stays usable.
public enum FramingError: Error, Sendable, Equatable {
    /// `Content-Length` over the limit. Refused before reading the body; the
    /// transport then discards exactly `declared` body bytes as they arrive.
    case messageTooLarge(declared: Int, limit: Int)
    /// A newline-delimited line over the limit; discarded up to the next newline.
    case lineTooLong(limit: Int)
    /// Missing or unparsable `Content-Length`, malformed header line, header block over 8 KiB.
    case invalidHeader(String)
    /// The peer closed the connection with `missing` body bytes still to come.
    case truncatedAtEOF(missing: Int)
}

/// One result of decoding: a complete payload, or an error about one frame.
public enum FrameEvent: Sendable, Equatable {
    case frame([UInt8])
    case error(FramingError)
}

extension FramingError: CustomStringConvertible {
    /// A message fit for the `message` of a JSON-RPC error reply.
    public var description: String {
        switch self {
        case .messageTooLarge(let declared, let limit):
            "message of \(declared) bytes exceeds the limit of \(limit) bytes"
        case .lineTooLong(let limit):
            "line exceeds the limit of \(limit) bytes"
        case .invalidHeader(let reason):
            "invalid header: \(reason)"
        case .truncatedAtEOF(let missing):
            missing > 0 ? "connection closed with \(missing) bytes of the message missing"
                : "connection closed inside a message header"
        }
    }
}
